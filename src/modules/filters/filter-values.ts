import { FieldType, inferFieldType, isDateString } from '../contacts';
import { FieldRef, Operator, ORDERING_OPERATORS, UNIT_OPERATORS } from './filter.types';

/** A filter value read as the type it is compared by. */
export type TypedValue =
  | { type: 'number'; value: number }
  | { type: 'string'; value: string }
  | { type: 'boolean'; value: boolean }
  /** `start` an ISO instant (ms, Z); `end` set for a date without time: the day is [start, end). */
  | { type: 'date'; start: string; end: string | null };

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_WITH_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value.trim());
  return null;
}

export function asBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

/** `YYYY-MM-DD` (a whole UTC day) or an ISO 8601 instant with a zone. */
export function asDate(value: unknown): { start: string; end: string | null } | null {
  if (typeof value !== 'string') return null;
  if (DATE_ONLY.test(value)) {
    if (!isDateString(value)) return null;
    const start = new Date(`${value}T00:00:00.000Z`);
    return { start: start.toISOString(), end: new Date(start.getTime() + 86_400_000).toISOString() };
  }
  if (!ISO_WITH_TIME.test(value)) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  return { start: new Date(ms).toISOString(), end: null };
}

/**
 * The type a `data.<key>` filter compares by: the key's inferred type, or (a key no contact has
 * yet) the type of the filter's value; date operators imply dates.
 */
export function comparisonType(ref: FieldRef, operator: Operator, value: unknown, fieldTypes: ReadonlyMap<string, FieldType>): FieldType {
  if (ref.kind === 'core') return ref.type;
  if (ref.kind !== 'data') return 'string';
  const known = fieldTypes.get(ref.key);
  if (known) return known;
  if (UNIT_OPERATORS.has(operator)) return 'date';
  if (operator === 'contains' || operator === 'notContains') return 'string';
  if (typeof value === 'string' && ORDERING_OPERATORS.has(operator) && asDate(value)) return 'date';
  return inferFieldType(value);
}

/** The value read as `type`, or null when it cannot be compared as that type. */
export function typedValue(type: FieldType, value: unknown): TypedValue | null {
  switch (type) {
    case 'number': {
      const n = asNumber(value);
      return n === null ? null : { type, value: n };
    }
    case 'boolean': {
      const b = asBoolean(value);
      return b === null ? null : { type, value: b };
    }
    case 'date': {
      const d = asDate(value);
      return d === null ? null : { type, ...d };
    }
    case 'string':
      return typeof value === 'string' ? { type, value } : typeof value === 'number' && Number.isFinite(value) ? { type, value: String(value) } : null;
  }
}

/** A positive whole count for the unit operators (`within 30 days`). */
export function asCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 10_000_000 ? value : null;
}
