import { isPlainObject, JsonObject } from './data-patch';

/** Persisted in contact_fields.type. */
export type FieldType = 'string' | 'number' | 'boolean' | 'date';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{3})?Z$/;

/** The spec's two date forms, `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS[.sss]Z`, with a real calendar day. */
export function isDateString(value: string): boolean {
  const m = DATE_ONLY.exec(value) ?? DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function inferFieldType(value: unknown): FieldType {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string' && isDateString(value)) return 'date';
  return 'string';
}

/**
 * The typed keys of stored values: a primitive key is itself; a plain object contributes its
 * leaves as dotted paths (`profile.tier`), which is how filters address them (`data.profile.tier`).
 * Arrays are typed `string` as a whole. Null leaves are skipped (the type is fixed by the first
 * non-null value).
 */
export function typedKeys(values: JsonObject, prefix = '', out: Array<[string, FieldType]> = []): Array<[string, FieldType]> {
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined || key === '') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value)) typedKeys(value, path, out);
    else out.push([path, inferFieldType(value)]);
  }
  return out;
}
