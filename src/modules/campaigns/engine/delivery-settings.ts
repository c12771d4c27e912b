import type { ApiPropertyOptions } from '@nestjs/swagger';
import { z } from 'zod';
import type { FieldError } from '../../../platform/http/app-error';
import { absent, coded, openApiSchemaOf, parseDeclared, unknownKey } from '../../../platform/http/declared-body';
import { WEEKDAYS, type CampaignDelivery } from '../entities/campaign.entity';

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
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isTime = (v: unknown): v is string => typeof v === 'string' && HOUR_MINUTE.test(v);
/** The envelope's code and message of every problem of a value. */
const fails = (message: string, code = 'invalid') => ({ error: coded(code, message) });
/** An object of exactly these fields: unknown keys are refused (`unknown_field`), anything else not an object is `invalid`. */
const closed = <S extends z.core.$ZodLooseShape>(name: string, fields: string, shape: S) =>
  z.object(shape, { error: coded('invalid', `${name} must be an object {${fields}}`) }).catchall(unknownKey('unknown_field', `${name} has no field {key}`, { received: true }));
const between = (name: string, { min, max }: { min: number; max: number }) => {
  const message = `${name} must be an integer from ${min} to ${max}`;
  return z.number(fails(message)).int(fails(message)).min(min, fails(message)).max(max, fails(message));
};

const DAYS = `days must be a non-empty list of distinct days among ${WEEKDAYS.join(', ')}`;
const FROM = 'from must be a time HH:MM (00:00 to 23:59)';
const TO = 'to must be a time HH:MM (00:01 to 24:00)';
const TIMEZONE = 'timezone must be an IANA time zone, e.g. Europe/Paris';

const WINDOW = closed('window', 'days, from, to, timezone', {
      // One item for the list, whatever is wrong with it: its members are not checked apart.
      days: z
        .array(z.unknown().meta({ type: 'string', enum: [...WEEKDAYS] }), fails(DAYS))
        .refine((days) => days.length > 0 && days.every((d) => (WEEKDAYS as readonly unknown[]).includes(d)) && new Set(days).size === days.length, fails(DAYS))
        .transform((days) => WEEKDAYS.filter((d) => days.includes(d))),
      from: z.string(fails(FROM)).regex(HOUR_MINUTE, fails(FROM)).meta({ example: '08:00' }),
      to: z.string(fails(TO)).regex(HOUR_MINUTE, fails(TO)).meta({ example: '18:00' }),
      timezone: z.string(fails(TIMEZONE)).refine(isTimezone, fails(TIMEZONE)).meta({ example: 'Europe/Paris' }),
})
  .refine((w) => minutesOf(w.from) < minutesOf(w.to), {
    ...fails('to must be later than from', 'out_of_range'),
    path: ['to'],
    when: ({ value }) => isObject(value) && isTime(value.from) && isTime(value.to),
  })
  .meta({ id: 'DeliveryWindowSchema' });

/**
 * `delivery` of a create or replace, declared once: its checks, one 422 item per bad field
 * (`delivery.batchSize`, `delivery.window.from`, …), its OpenAPI schema (`DeliverySchema`) and the
 * persisted value (null when absent or empty; `intervalMinutes` filled when `batchSize` is given).
 */
export const DELIVERY = absent(
  closed('delivery', 'batchSize?, intervalMinutes?, window?', {
    batchSize: absent(between('batchSize', BATCH_SIZE)),
    intervalMinutes: absent(between('intervalMinutes', INTERVAL_MINUTES)),
    window: absent(WINDOW),
  })
    .refine((d) => d.batchSize !== undefined && d.batchSize !== null, {
      ...fails('batchSize is required with intervalMinutes', 'required'),
      path: ['batchSize'],
      when: ({ value }) => isObject(value) && isInt(value.intervalMinutes) && value.intervalMinutes >= INTERVAL_MINUTES.min && value.intervalMinutes <= INTERVAL_MINUTES.max,
    })
    .meta({ id: 'DeliverySchema' }),
).transform((d): CampaignDelivery | null => {
  const delivery: CampaignDelivery = {};
  if (d?.batchSize) Object.assign(delivery, { batchSize: d.batchSize, intervalMinutes: d.intervalMinutes ?? DEFAULT_INTERVAL_MINUTES });
  if (d?.window) delivery.window = d.window;
  return Object.keys(delivery).length ? delivery : null;
});

/** `delivery` in the OpenAPI document (the DTOs' property): its component, or null. */
export const DELIVERY_PROPERTY = { type: 'object', allOf: [openApiSchemaOf(DELIVERY)], nullable: true } as ApiPropertyOptions;

/** `delivery` checked (`DELIVERY`): the persisted value, or one 422 item per bad field. */
export function checkDelivery(value: unknown): { problems: FieldError[]; delivery: CampaignDelivery | null } {
  const parsed = parseDeclared(z.object({ delivery: DELIVERY }), { delivery: value });
  return parsed.value === null ? { problems: parsed.errors, delivery: null } : { problems: [], delivery: parsed.value.delivery };
}
