import { canonicalOperator, Filter, OPERATOR_ALIASES, UNIT_OPERATORS, VALUE_OPERATORS } from '../../filters';

/** The ten comparison operators of segment filters (and their aliases): the value operators without the date-unit ones. */
export const CONDITION_OPERATORS: readonly string[] = [
  ...[...VALUE_OPERATORS].filter((op) => !UNIT_OPERATORS.has(op)),
  ...Object.keys(OPERATOR_ALIASES).filter((alias) => !UNIT_OPERATORS.has(OPERATOR_ALIASES[alias])),
];

export const operatorNeedsValue = (operator: string): boolean => {
  const op = canonicalOperator(operator);
  return op !== 'exists' && op !== 'notExists';
};

/** `contact.email`, `contact.subscribed`, `data.<path>`, `event.<key>`, `workflow.<key>`; else why not. */
export function conditionFieldProblem(field: unknown): string | null {
  if (typeof field !== 'string') return 'field is required';
  if (field === 'contact.email' || field === 'contact.subscribed') return null;
  if (/^(data|event|workflow)\.[^.]+(\.[^.]+)*$/.test(field)) return null;
  return 'field must be contact.email, contact.subscribed, data.<path>, event.<key> or workflow.<key>';
}

export interface Condition {
  field: string;
  operator: string;
  value?: unknown;
}

/**
 * A CONDITION as one segment filter, so it compares exactly as segment filters do: contact
 * fields over the contact's row; `event.<key>` and `workflow.<key>` as `data.<key>` over a row
 * whose `data` is the trigger event's data or the execution's context.
 */
export function toSegmentFilter(condition: Condition): { source: 'contact' | 'event' | 'workflow'; filter: Filter } {
  const { field, operator, value } = condition;
  if (field === 'contact.email') return { source: 'contact', filter: { field: 'email', operator, value } };
  if (field === 'contact.subscribed') return { source: 'contact', filter: { field: 'subscribed', operator, value } };
  const dot = field.indexOf('.');
  const root = field.slice(0, dot);
  const key = field.slice(dot + 1);
  if (root === 'data') return { source: 'contact', filter: { field, operator, value } };
  return { source: root === 'event' ? 'event' : 'workflow', filter: { field: `data.${key}`, operator, value } };
}
