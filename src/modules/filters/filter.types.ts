import type { FieldType } from '../contacts';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { EMAIL_ACTIVITIES, EmailActivity } from '../emails';

export const OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'greaterThan',
  'lessThan',
  'greaterThanOrEqual',
  'lessThanOrEqual',
  'exists',
  'notExists',
  'within',
  'olderThan',
  'triggered',
  'triggeredWithin',
  'triggeredOlderThan',
  'notTriggered',
  'notTriggeredWithin',
  'memberOfSegment',
  'notMemberOfSegment',
] as const;
export type Operator = (typeof OPERATORS)[number];

export const OPERATOR_ALIASES: Readonly<Record<string, Operator>> = {
  gt: 'greaterThan',
  lt: 'lessThan',
  gte: 'greaterThanOrEqual',
  lte: 'lessThanOrEqual',
};

export const UNITS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000, weeks: 604_800_000 } as const;
export type Unit = keyof typeof UNITS;

/** Operators that need `unit` (and a positive number `value`). */
export const UNIT_OPERATORS: ReadonlySet<Operator> = new Set(['within', 'olderThan', 'triggeredWithin', 'triggeredOlderThan', 'notTriggeredWithin']);
/** Operators that take no `value`. */
export const VALUELESS_OPERATORS: ReadonlySet<Operator> = new Set(['exists', 'notExists', 'triggered', 'notTriggered', 'memberOfSegment', 'notMemberOfSegment']);

export const VALUE_OPERATORS: ReadonlySet<Operator> = new Set(['equals', 'notEquals', 'contains', 'notContains', 'greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual', 'exists', 'notExists', 'within', 'olderThan']);
export const EVENT_OPERATORS: ReadonlySet<Operator> = new Set(['triggered', 'triggeredWithin', 'triggeredOlderThan', 'notTriggered', 'notTriggeredWithin']);
export const SEGMENT_OPERATORS: ReadonlySet<Operator> = new Set(['memberOfSegment', 'notMemberOfSegment']);
/** `topics.<slug>`: `equals` (or `notEquals`) true/false on effective membership. */
export const TOPIC_OPERATORS: ReadonlySet<Operator> = new Set(['equals', 'notEquals']);
export const ORDERING_OPERATORS: ReadonlySet<Operator> = new Set(['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual']);

export const CORE_FIELDS = {
  email: { column: 'email', type: 'string' },
  subscribed: { column: 'subscribed', type: 'boolean' },
  createdAt: { column: 'created_at', type: 'date' },
  updatedAt: { column: 'updated_at', type: 'date' },
} as const satisfies Record<string, { column: string; type: FieldType }>;
export type CoreField = keyof typeof CORE_FIELDS;

/** What a filter's `field` addresses. */
export type FieldRef =
  | { kind: 'core'; name: CoreField; column: string; type: FieldType }
  | { kind: 'data'; key: string; path: string[] }
  | { kind: 'event'; name: string }
  | { kind: 'email'; activity: EmailActivity }
  | { kind: 'segment'; id: string }
  | { kind: 'topic'; slug: string };

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Parses a filter's `field`; null when it names nothing (422 `unknown_field`). */
export function parseField(field: string): FieldRef | null {
  if (has(CORE_FIELDS, field)) {
    const core = CORE_FIELDS[field as CoreField];
    return { kind: 'core', name: field as CoreField, column: core.column, type: core.type };
  }
  const dot = field.indexOf('.');
  if (dot <= 0) return null;
  const family = field.slice(0, dot);
  const rest = field.slice(dot + 1);
  if (rest.length === 0) return null;
  if (family === 'data') {
    const path = rest.split('.');
    return path.some((p) => p.length === 0) ? null : { kind: 'data', key: rest, path };
  }
  if (family === 'event') return { kind: 'event', name: rest };
  if (family === 'email') return has(EMAIL_ACTIVITIES, rest) ? { kind: 'email', activity: rest as EmailActivity } : null;
  if (family === 'segment') return isUuid(rest) ? { kind: 'segment', id: rest.toLowerCase() } : null;
  if (family === 'topics') return { kind: 'topic', slug: rest };
  return null;
}

export function canonicalOperator(operator: string): Operator | null {
  if (has(OPERATOR_ALIASES, operator)) return OPERATOR_ALIASES[operator];
  return (OPERATORS as readonly string[]).includes(operator) ? (operator as Operator) : null;
}

/** The operators a field family accepts. */
export function operatorsFor(ref: FieldRef): ReadonlySet<Operator> {
  if (ref.kind === 'event' || ref.kind === 'email') return EVENT_OPERATORS;
  if (ref.kind === 'segment') return SEGMENT_OPERATORS;
  if (ref.kind === 'topic') return TOPIC_OPERATORS;
  return VALUE_OPERATORS;
}
