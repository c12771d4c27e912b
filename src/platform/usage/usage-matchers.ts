import type { UsageSubject } from './usage.registry';

/**
 * jsonpath tests a provider runs over its own JSON columns (filter trees, workflow step configs)
 * to find a subject: `jsonb_path_exists(column, path, vars, true)` for any of `paths` (silent: a
 * value of another shape is no match, not an error). Null for subjects a JSON reference cannot
 * name (templates and domains are referenced by dedicated columns).
 */
export interface JsonReferenceMatcher {
  paths: string[];
  vars: Record<string, unknown>;
}

export function jsonReferenceMatcher(subject: UsageSubject): JsonReferenceMatcher | null {
  switch (subject.kind) {
    case 'field': {
      // Standard fields (`email`, `subscribed`, …) are referenced as a filter's `field` only; custom ones are `data.<path>`.
      if (!subject.field.startsWith('data.')) return { paths: ['$.**.field ? (@ == $f)'], vars: { f: subject.field } };
      // `data.<path>` (or a path below it) anywhere, or a write of its top-level key (UPDATE_CONTACT).
      const key = subject.field.replace(/^data\./, '');
      return {
        paths: ['$.** ? (@ == $f || @ starts with $p)', '$.**.updates.keyvalue() ? (@.key == $k)'],
        vars: { f: subject.field, p: `${subject.field}.`, k: key },
      };
    }
    case 'event':
      // `event.<name>` filter fields, and `eventName` triggers and waits.
      return { paths: ['$.** ? (@ == $e)', '$.**.eventName ? (@ == $n)', '$.**.event_name ? (@ == $n)'], vars: { e: `event.${subject.name}`, n: subject.name } };
    case 'segment':
      return { paths: ['$.** ? (@ == $s)', '$.**.segmentId ? (@ == $id)'], vars: { s: `segment.${subject.id}`, id: subject.id } };
    default:
      return null;
  }
}

/** The SQL condition for `matcher` over `column`, with its parameters numbered from `first`. */
export function jsonReferenceCondition(column: string, matcher: JsonReferenceMatcher, first: number): { sql: string; params: unknown[] } {
  const varsParam = first + matcher.paths.length;
  return {
    sql: matcher.paths.map((_, i) => `jsonb_path_exists(${column}, $${first + i}::jsonpath, $${varsParam}::jsonb, true)`).join(' OR '),
    params: [...matcher.paths, JSON.stringify(matcher.vars)],
  };
}
