/** Field types a CSV cell can be typed as; the same names the contacts field registry uses. */
export type CsvFieldType = 'string' | 'number' | 'boolean' | 'date';

export interface TypedCell {
  value: string | number | boolean;
  type: CsvFieldType;
}

/**
 * Columns that never become `data.<key>` (compared after `headerToKey`): the core contact
 * fields, the generated URL variables, and the reserved data keys.
 */
export const DROPPED_KEYS: ReadonlySet<string> = new Set([
  'id',
  'email',
  'subscribed',
  'createdat',
  'updatedat',
  'unsubscribeurl',
  'subscribeurl',
  'manageurl',
  'plunk_id',
  'plunk_email',
]);

/** Header text → data key: trimmed, inner whitespace collapsed, lowercased (`First Name` → `first name`). */
export function headerToKey(header: string): string {
  return headerText(header).replace(/\s+/g, ' ').toLowerCase();
}

/** A header cell as a column mapping names it: without a BOM and the spaces around it. */
export function headerText(header: string): string {
  return header.replace(/^\uFEFF/, '').trim();
}

/**
 * An import's column mapping (docs/api.md#import-column-mapping): header text (`headerText`) →
 * the data key its cells are stored under, or null to skip the column. Headers it does not name
 * keep the derived key (`headerToKey`). Validated at upload (`resolveColumnMapping`).
 */
export type ColumnMapping = Record<string, string | null>;

/**
 * A mapped key: letters, digits, `_`, and inner spaces or dashes. No dot (a dot is a nested path
 * in segments and templates), nothing around it, so the key is written the way it is stored.
 * The dashboard's mapping step checks keys with the same pattern (it imports this file).
 */
export const MAPPED_KEY = /^[\p{L}\p{N}_](?:[\p{L}\p{N}_ -]*[\p{L}\p{N}_])?$/u;

export interface ColumnPlan {
  /** Index of the first `email` column. */
  emailIndex: number;
  /** Columns kept as data keys, in file order; a key given twice keeps both (the later non-empty cell wins). */
  columns: Array<{ index: number; key: string }>;
}

/** Decides which columns are read; null when the header has no `email` column. */
export function planColumns(headers: string[], mapping?: ColumnMapping | null): ColumnPlan | null {
  const keys = headers.map(headerToKey);
  const emailIndex = keys.indexOf('email');
  if (emailIndex < 0) return null;
  const columns: ColumnPlan['columns'] = [];
  keys.forEach((key, index) => {
    const text = headerText(headers[index]);
    if (index !== emailIndex && mapping && Object.hasOwn(mapping, text)) {
      const mapped = mapping[text];
      if (mapped !== null) columns.push({ index, key: mapped });
    } else if (key !== '' && !DROPPED_KEYS.has(key)) columns.push({ index, key });
  });
  return { emailIndex, columns };
}

const BOOLEAN = /^(true|false|yes|no)$/i;
/** Plain integers and decimals: no plus sign, no exponent, no leading zero before other digits. */
const PLAIN_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
/** More significant digits than a double keeps exactly: such values (ids, card-like numbers) stay strings. */
const MAX_SIGNIFICANT_DIGITS = 15;

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function plainNumber(text: string): number | undefined {
  if (!PLAIN_NUMBER.test(text)) return undefined;
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  if (digits.length > MAX_SIGNIFICANT_DIGITS) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * ISO 8601 date → the stored form: `YYYY-MM-DD` as given; a date-time normalized to UTC
 * `YYYY-MM-DDTHH:MM:SS.sssZ` (no zone means UTC), the two forms the field types call `date`.
 */
function isoDate(text: string): string | undefined {
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) return isCalendarDate(+dateOnly[1], +dateOnly[2], +dateOnly[3]) ? text : undefined;
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '00', frac = '', zone = 'Z'] = m;
  if (!isCalendarDate(+y, +mo, +d) || +h > 23 || +mi > 59 || +s > 59) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const hours = +z[2];
    const minutes = z[3] ? +z[3] : 0;
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (z[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const millis = frac ? Math.floor(Number(`0${frac}`) * 1000) : 0;
  const utc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, millis) - offsetMinutes * 60_000;
  return new Date(utc).toISOString();
}

/**
 * The spec's CSV typing rules for one cell; undefined for an empty cell (ignored: it never
 * overwrites stored data). Values are trimmed first.
 */
export function typeCell(raw: string): TypedCell | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  if (BOOLEAN.test(text)) {
    const lower = text.toLowerCase();
    return { value: lower === 'true' || lower === 'yes', type: 'boolean' };
  }
  const number = plainNumber(text);
  if (number !== undefined) return { value: number, type: 'number' };
  const date = isoDate(text);
  if (date !== undefined) return { value: date, type: 'date' };
  return { value: text, type: 'string' };
}
