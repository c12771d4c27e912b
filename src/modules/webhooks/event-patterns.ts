/**
 * Event patterns of an endpoint's `events` (docs/decisions.md#event-webhooks): an exact event name
 * (`email.bounce`, `purchase`), a prefix ending in `.*` (`email.*`, `segment.*`), or `*`.
 */

/** A name segment as the service records names: no spaces, no `*`, no empty segments. */
const NAME = /^[^\s*]+$/;

/** Longest pattern accepted (event names are at most 200 characters). */
export const MAX_PATTERN_LENGTH = 200;

/** Why a pattern is malformed, or null when it is one of the three forms. */
export function patternProblem(pattern: string): string | null {
  if (pattern === '*') return null;
  if (pattern.length === 0) return 'must not be empty';
  if (pattern.length > MAX_PATTERN_LENGTH) return `must be at most ${MAX_PATTERN_LENGTH} characters`;
  const prefix = pattern.endsWith('.*') ? pattern.slice(0, -2) : pattern;
  if (prefix.length === 0 || !NAME.test(prefix) || prefix.startsWith('.') || prefix.endsWith('.') || prefix.includes('..')) {
    return 'must be an event name, a prefix ending in .* (email.*) or *';
  }
  return null;
}

/** Whether an event named `name` goes to an endpoint subscribed to `patterns`. */
export function matches(patterns: readonly string[], name: string): boolean {
  for (const p of patterns) {
    if (p === '*' || p === name) return true;
    // `email.*` covers `email.open` and `email.link.click`, never `email` itself nor `emails.x`.
    if (p.endsWith('.*') && name.length > p.length - 1 && name.startsWith(p.slice(0, -1))) return true;
  }
  return false;
}

/** Patterns by form, for a statement that matches names in SQL (`sql/event-patterns.sql.ts`) as `matches` does. */
export function splitPatterns(patterns: readonly string[]): { all: boolean; exact: string[]; prefixes: string[] } {
  return {
    all: patterns.includes('*'),
    exact: patterns.filter((p) => p !== '*' && !p.endsWith('.*')),
    // `email.*` → `email.`: a name matches when it starts with it and goes on.
    prefixes: patterns.filter((p) => p.endsWith('.*')).map((p) => p.slice(0, -1)),
  };
}
