import { isPlainObject, JsonObject } from './data-patch';
import { isDateString } from './data-rules';

/** Persisted in contact_fields.type. */
export type FieldType = 'string' | 'number' | 'boolean' | 'date';

export { isDateString };

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
