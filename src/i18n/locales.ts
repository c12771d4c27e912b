export const SUPPORTED_LOCALES = ['en', 'de', 'fr', 'es', 'nl', 'pt', 'it'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** `de-DE`, `pt_BR`, `FR` → the supported base language, or null. */
export function normalizeLocale(value: unknown): Locale | null {
  if (typeof value !== 'string') return null;
  const base = value.trim().toLowerCase().split(/[-_]/)[0];
  return (SUPPORTED_LOCALES as readonly string[]).includes(base) ? (base as Locale) : null;
}

/** The contact's `data.locale` wins over the project language; English is the last resort. */
export function resolveLocale(...candidates: unknown[]): Locale {
  for (const candidate of candidates) {
    const locale = normalizeLocale(candidate);
    if (locale) return locale;
  }
  return 'en';
}

/** Replaces `{name}` placeholders; values are inserted as given (escape them first for HTML). */
export function format(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);
}
