import { badRequest } from '../../platform/http/app-error';

export type Interval = 'hour' | 'day';

const DAY_MS = 24 * 3600_000;
/** docs/decisions.md#activity-and-analytics: `from`/`to` default to the last 30 days. */
export const DEFAULT_RANGE_MS = 30 * DAY_MS;
/** Hour buckets over more than a year would be 8,760+ points: refused. */
export const MAX_HOURLY_RANGE_MS = 366 * DAY_MS;
/** Day buckets: at most ten years. */
export const MAX_DAILY_RANGE_MS = 3660 * DAY_MS;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function parseDate(raw: string | undefined, field: string): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = ISO_DATE.test(raw) ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(value.getTime())) {
    throw badRequest(`${field} must be an ISO 8601 date`, { details: { field, received: raw }, suggestion: 'For example 2026-01-31 or 2026-01-31T12:00:00.000Z.' });
  }
  return value;
}

/** `from`/`to` (ISO 8601, defaults: the last 30 days); `from` after `to` is 400. */
export function parseRange(query: { from?: string; to?: string }, now = new Date()): { from: Date; to: Date } {
  const to = parseDate(query.to, 'to') ?? now;
  const from = parseDate(query.from, 'from') ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
  if (from.getTime() > to.getTime()) throw badRequest('from must not be after to', { details: { from: from.toISOString(), to: to.toISOString() } });
  return { from, to };
}

export function parseInterval(raw: string | undefined, range: { from: Date; to: Date }): Interval {
  const interval = raw === undefined || raw === '' ? 'day' : raw;
  if (interval !== 'hour' && interval !== 'day') throw badRequest('interval must be hour or day', { details: { received: raw } });
  const span = range.to.getTime() - range.from.getTime();
  if (interval === 'hour' && span > MAX_HOURLY_RANGE_MS) throw badRequest('At interval=hour the range may span at most one year', { suggestion: 'Use interval=day.' });
  if (span > MAX_DAILY_RANGE_MS) throw badRequest('The range may span at most ten years');
  return interval;
}
