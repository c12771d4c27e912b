import { Transform } from 'class-transformer';
import { badRequest, validationError } from './app-error';

/** Spec section 4 convention 5: default 20, max 100 (larger values are clamped). */
export const CURSOR_DEFAULT_LIMIT = 20;
export const CURSOR_MAX_LIMIT = 100;
/** Highest `page` of offset lists: every numeric query value is bounded (a 20-digit page overflowed bigint). */
export const MAX_PAGE = 1_000_000;

export interface CursorPage<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
  /** Present as a count only on the first page (no cursor); later pages carry 0. */
  total: number;
}

export interface OffsetPage<T> {
  data: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

/**
 * Parses a positive integer query value. Absent → `fallback`; above `max` → `max` (clamped, however
 * many digits: `limit=99999999999999999999` is 100, as `pageSize` is); anything else that is not
 * an integer >= 1 → 422 naming the parameter. Without `max` the caller bounds the value.
 */
export function parsePositiveInt(raw: unknown, field: string, fallback: number, max?: number): number {
  if (raw === undefined || raw === '') return fallback;
  const text = String(raw);
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw validationError([{ field, message: `${field} must be an integer >= 1`, code: 'invalid_type', received: raw }]);
  }
  const value = Number(text);
  return max !== undefined ? Math.min(value, max) : value;
}

export const clampLimit = (raw: unknown): number => parsePositiveInt(raw, 'limit', CURSOR_DEFAULT_LIMIT, CURSOR_MAX_LIMIT);

/** A timestamp as PostgreSQL prints it (`created_at::text`, full precision): the sort value keyset cursors carry. */
export const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** Cursors are opaque to clients: base64url JSON of whatever the list needs to resume. */
export function encodeCursor(state: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

/** A cursor that does not decode to an object is a client error (400), never a 500. */
export function decodeCursor<T extends Record<string, unknown>>(cursor: string | undefined, check: (value: Record<string, unknown>) => boolean): T | null {
  if (cursor === undefined || cursor === '') return null;
  try {
    if (cursor.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('shape');
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !check(value as Record<string, unknown>)) throw new Error('shape');
    return value as T;
  } catch {
    throw badRequest('Invalid cursor', { suggestion: 'Pass the cursor value of the previous response unchanged, or omit it for the first page.' });
  }
}

/** Builds a cursor page from `limit + 1` fetched rows. */
export function cursorPage<R, T>(rows: R[], limit: number, map: (row: R) => T, cursorOf: (last: R) => Record<string, unknown>, total: number): CursorPage<T> {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: page.map(map),
    cursor: hasMore ? encodeCursor(cursorOf(page[page.length - 1])) : null,
    hasMore,
    total,
  };
}

export const offsetPage = <T>(data: T[], page: number, pageSize: number, total: number): OffsetPage<T> => ({
  data,
  page,
  pageSize,
  total,
  totalPages: Math.ceil(total / pageSize),
});

/** `page`/`pageSize` query values for offset lists (page >= 1, pageSize 1..maxPageSize). */
export function parseOffsetQuery(query: { page?: unknown; pageSize?: unknown }, maxPageSize = 100): { page: number; pageSize: number; offset: number } {
  const page = parsePositiveInt(query.page, 'page', 1);
  if (page > MAX_PAGE) throw validationError([{ field: 'page', message: `page must not be greater than ${MAX_PAGE}`, code: 'too_big', received: query.page }]);
  const pageSize = parsePositiveInt(query.pageSize, 'pageSize', 20, maxPageSize);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** Query-string integer: digit strings become numbers; anything else stays as-is for `@IsInt` to reject. */
export const QueryInt = () => Transform(({ value }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value));

/** Query-string boolean: `true`/`false` (case-insensitive); other strings stay as-is for `@IsBoolean` to reject. */
export const QueryBoolean = () =>
  Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const v = value.toLowerCase();
    return v === 'true' ? true : v === 'false' ? false : value;
  });
