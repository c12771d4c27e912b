export interface DateFormatOptions {
  /** An IANA zone; the user's own by default (tests pin it). */
  timeZone?: string;
  /** A BCP 47 locale; the user's own by default. */
  locale?: string;
}

/**
 * Every time the dashboard shows, in the user's time zone with the zone named ("Mar 5, 2026,
 * 2:30 PM GMT+1"); '—' for none, the text itself when it is not a date. The one helper every
 * page uses, so a time reads the same everywhere.
 */
export function formatDate(iso: string | number | Date | null | undefined, options: DateFormatOptions = {}): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const date = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return new Intl.DateTimeFormat(options.locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: options.timeZone,
  }).format(date);
}

/** The user's time zone as IANA names it ("Europe/Paris"), for labels such as "Send at (Europe/Paris)". */
export function userTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A `datetime-local` input's text (the user's wall-clock time, no zone) as the instant the API wants; undefined when empty or unreadable. */
export function localToIso(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function formatNumber(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : n.toLocaleString();
}

export function formatPercent(fraction: number | null | undefined, digits = 1): string {
  return fraction === null || fraction === undefined ? '—' : `${(fraction * 100).toFixed(digits)}%`;
}

/** A data value for a table cell: strings as is, everything else as JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
