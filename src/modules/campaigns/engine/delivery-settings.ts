import type { FieldError } from '../../../platform/http/app-error';
import { WEEKDAYS, type CampaignDelivery, type Weekday } from '../entities/campaign.entity';

/** Bounds of `delivery.intervalMinutes`: one minute to one week. */
export const INTERVAL_MINUTES = { min: 1, max: 10_080 } as const;
/** Bounds of `delivery.batchSize`. */
export const BATCH_SIZE = { min: 1, max: 1_000_000 } as const;
/** `intervalMinutes` when `batchSize` is given without it. */
export const DEFAULT_INTERVAL_MINUTES = 60;

/** A wall-clock time without offset, as `timezone: "recipient"` reads `scheduledFor`. */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/;
const HOUR_MINUTE = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;

/** An IANA zone name as `Intl` knows it (`Europe/Paris`, `UTC`); offsets and abbreviations other than UTC are refused. */
export function isTimezone(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 64) return false;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** `2026-12-01T09:00[:00[.000]]` with a real calendar date, as stored (`YYYY-MM-DDTHH:MM:SS`); null when not one. */
export function wallClock(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = WALL_CLOCK.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s = '00'] = m.slice(1);
  const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
  if (date.getUTCFullYear() !== +y || date.getUTCMonth() !== +mo - 1 || date.getUTCDate() !== +d || +h > 23 || +s > 59) return null;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}`;
}

const minutesOf = (hm: string) => (hm === '24:00' ? 1440 : Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3, 5)));
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * `delivery` of a create or replace, checked: one 422 item per bad field (`delivery.batchSize`,
 * `delivery.window.from`, …), or the persisted value (null when absent or empty).
 */
export function checkDelivery(value: unknown): { problems: FieldError[]; delivery: CampaignDelivery | null } {
  if (value === undefined || value === null) return { problems: [], delivery: null };
  const problems: FieldError[] = [];
  const bad = (field: string, message: string, received: unknown, code = 'invalid') => problems.push({ field: `delivery.${field}`, message, code, received });
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { problems: [{ field: 'delivery', message: 'delivery must be an object {batchSize?, intervalMinutes?, window?}', code: 'invalid', received: value }], delivery: null };
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) if (!['batchSize', 'intervalMinutes', 'window'].includes(key)) bad(key, `delivery has no field ${key}`, v[key], 'unknown_field');
  const delivery: CampaignDelivery = {};
  if (v.batchSize !== undefined && v.batchSize !== null) {
    if (!isInt(v.batchSize) || v.batchSize < BATCH_SIZE.min || v.batchSize > BATCH_SIZE.max) bad('batchSize', `batchSize must be an integer from ${BATCH_SIZE.min} to ${BATCH_SIZE.max}`, v.batchSize);
    else delivery.batchSize = v.batchSize;
  }
  if (v.intervalMinutes !== undefined && v.intervalMinutes !== null) {
    if (!isInt(v.intervalMinutes) || v.intervalMinutes < INTERVAL_MINUTES.min || v.intervalMinutes > INTERVAL_MINUTES.max) {
      bad('intervalMinutes', `intervalMinutes must be an integer from ${INTERVAL_MINUTES.min} to ${INTERVAL_MINUTES.max}`, v.intervalMinutes);
    } else if (v.batchSize === undefined || v.batchSize === null) bad('batchSize', 'batchSize is required with intervalMinutes', v.batchSize, 'required');
    else delivery.intervalMinutes = v.intervalMinutes;
  }
  if (delivery.batchSize !== undefined && delivery.intervalMinutes === undefined && problems.length === 0) delivery.intervalMinutes = DEFAULT_INTERVAL_MINUTES;
  if (v.window !== undefined && v.window !== null) {
    const w = v.window as Record<string, unknown>;
    if (typeof w !== 'object' || Array.isArray(w)) bad('window', 'window must be an object {days, from, to, timezone}', w);
    else {
      const days = w.days;
      const okDays = Array.isArray(days) && days.length > 0 && days.every((d) => (WEEKDAYS as readonly unknown[]).includes(d)) && new Set(days).size === days.length;
      if (!okDays) bad('window.days', `days must be a non-empty list of distinct days among ${WEEKDAYS.join(', ')}`, days);
      const okFrom = typeof w.from === 'string' && HOUR_MINUTE.test(w.from);
      const okTo = typeof w.to === 'string' && HOUR_MINUTE.test(w.to);
      if (!okFrom) bad('window.from', 'from must be a time HH:MM (00:00 to 23:59)', w.from);
      if (!okTo) bad('window.to', 'to must be a time HH:MM (00:01 to 24:00)', w.to);
      if (okFrom && okTo && minutesOf(w.from as string) >= minutesOf(w.to as string)) bad('window.to', 'to must be later than from', w.to, 'out_of_range');
      if (!isTimezone(w.timezone)) bad('window.timezone', 'timezone must be an IANA time zone, e.g. Europe/Paris', w.timezone);
      for (const key of Object.keys(w)) if (!['days', 'from', 'to', 'timezone'].includes(key)) bad(`window.${key}`, `window has no field ${key}`, w[key], 'unknown_field');
      if (okDays && okFrom && okTo && isTimezone(w.timezone)) {
        delivery.window = { days: WEEKDAYS.filter((d) => (days as Weekday[]).includes(d)), from: w.from as string, to: w.to as string, timezone: w.timezone };
      }
    }
  }
  if (problems.length) return { problems, delivery: null };
  return { problems, delivery: Object.keys(delivery).length ? delivery : null };
}
