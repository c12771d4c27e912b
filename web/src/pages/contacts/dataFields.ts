/**
 * The typed editor of a contact's custom data (ContactDetailPage): the stored object as rows, one
 * per leaf (nested objects by path, as `GET /contacts/fields` names them), each edited by its
 * field's type, and back to the object `dataPatch` compares with the stored one. Removing a row
 * sends the data rule for removal: a top-level key as null, a nested leaf by re-sending its
 * parent object without it (a sent object replaces the stored one).
 */
import { DATE_ONLY, isDateString, RESERVED_DATA_KEYS } from '../../../../src/modules/contacts/data/data-rules';

/** The project's field types (`GET /contacts/fields`); `json` edits what has no field type (arrays). */
export type FieldType = 'string' | 'number' | 'boolean' | 'date';
export type RowType = FieldType | 'json';

export interface DataRow {
  /** Stable React key and error slot. */
  id: string;
  path: string[];
  type: RowType;
  /** The input's text: a string, a number as typed, `true`/`false`, `YYYY-MM-DD`, or JSON. */
  text: string;
  /** A stored date-time (not a date alone) as stored, kept while its text is unchanged. */
  original?: string;
}

/** Keys the API drops from every write (docs/api.md "Custom data"). */
export const RESERVED_KEYS = RESERVED_DATA_KEYS;
export { isDateString };

/** The type the API infers for a value (its first value fixes a field's type). */
export function inferType(value: unknown): RowType {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return isDateString(value) ? 'date' : 'string';
  return 'json';
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

let nextId = 0;
export const newRowId = (): string => `row-${++nextId}`;

/** A value as the input of `type` shows it. */
function textOf(value: unknown, type: RowType): Pick<DataRow, 'text' | 'original'> {
  if (type === 'json') return { text: JSON.stringify(value) };
  if (type === 'date' && typeof value === 'string' && !DATE_ONLY.test(value)) return { text: value, original: value };
  return { text: String(value) };
}

/**
 * The rows of `data`: a leaf takes its field's type (`types`, by dotted path) when its value
 * fits it, else the type of its value (an old value of another type stays editable).
 */
export function toRows(data: Record<string, unknown>, types: ReadonlyMap<string, FieldType>, prefix: string[] = []): DataRow[] {
  const rows: DataRow[] = [];
  for (const [key, value] of Object.entries(data)) {
    const path = [...prefix, key];
    if (isObject(value) && Object.keys(value).length > 0) {
      rows.push(...toRows(value, types, path));
      continue;
    }
    if (value === null || value === undefined) continue;
    const inferred = inferType(value);
    const declared = types.get(path.join('.'));
    const type = declared && (declared === inferred || (declared === 'string' && inferred === 'date')) ? declared : inferred;
    rows.push({ id: newRowId(), path, type, ...textOf(value, type) });
  }
  return rows;
}

/** A row's value, or what is wrong with its input. */
export function rowValue(row: DataRow): { value: unknown } | { error: string } {
  const text = row.text;
  switch (row.type) {
    case 'boolean':
      return { value: text === 'true' };
    case 'number': {
      const n = Number(text);
      return text.trim() !== '' && Number.isFinite(n) ? { value: n } : { error: 'Enter a number.' };
    }
    case 'date':
      if (row.original !== undefined && text === row.original) return { value: text };
      return isDateString(text) ? { value: text } : { error: 'Enter a date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ).' };
    case 'json':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: 'Enter valid JSON (e.g. ["a", "b"]).' };
      }
    default:
      // The API ignores an empty string (it is not a way to delete): say so here.
      return text === '' ? { error: 'Enter a value, or remove the field.' } : { value: text };
  }
}

/** The data object of `rows` (nested paths rebuilt), or each invalid row's message by row id. */
export function fromRows(rows: DataRow[]): { data: Record<string, unknown> } | { errors: Record<string, string> } {
  const data: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const row of rows) {
    const result = rowValue(row);
    if ('error' in result) {
      errors[row.id] = result.error;
      continue;
    }
    let target = data;
    for (const segment of row.path.slice(0, -1)) {
      if (!isObject(target[segment])) target[segment] = {};
      target = target[segment] as Record<string, unknown>;
    }
    target[row.path[row.path.length - 1]] = result.value;
  }
  return Object.keys(errors).length ? { errors } : { data };
}

/** What is wrong with a new field's name, given the rows already there; undefined when it can be added. */
export function newKeyError(name: string, rows: DataRow[]): string | undefined {
  const key = name.trim();
  if (!key) return 'Name the field.';
  const path = key.split('.');
  if (path.some((s) => s === '')) return 'A nested name is dotted parts, none empty (profile.tier).';
  if (RESERVED_KEYS.includes(path[0]) || path[0] === '__proto__') return `"${path[0]}" is reserved.`;
  const taken = rows.find((r) => {
    const shorter = Math.min(r.path.length, path.length);
    return r.path.slice(0, shorter).join('\u0000') === path.slice(0, shorter).join('\u0000');
  });
  if (taken) return taken.path.join('.') === key ? 'This contact already has that field.' : `It overlaps the field ${taken.path.join('.')}.`;
  return undefined;
}

/** The empty input of a new field of `type`. */
export function emptyText(type: RowType): string {
  return type === 'boolean' ? 'false' : type === 'json' ? '[]' : '';
}

/** The value at a dotted path of `data` (undefined when absent). */
export function valueAt(data: Record<string, unknown> | null | undefined, path: string): unknown {
  let value: unknown = data ?? undefined;
  for (const segment of path.split('.')) {
    if (!isObject(value)) return undefined;
    value = value[segment];
  }
  return value;
}

/** The dotted paths of `data`'s leaves (nested objects walked), as columns name them. */
export function leafPaths(data: Record<string, unknown> | null | undefined, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(data ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isObject(value) && Object.keys(value).length > 0) out.push(...leafPaths(value, path));
    else out.push(path);
  }
  return out;
}

/** Which data keys the contact list shows as columns, remembered per project in this browser. */
export const columnsStorageKey = (projectId: string): string => `mailroom.contacts.columns.${projectId}`;

export function readColumns(storage: Pick<Storage, 'getItem'>, projectId: string): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(columnsStorageKey(projectId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string').slice(0, 20) : [];
  } catch {
    return [];
  }
}
