import { z } from 'zod';
import type { FieldError } from '../../platform/http/app-error';
import { coded, issue, openApiModelOf, parseDeclared, unknownKey } from '../../platform/http/declared-body';
import type { FieldType } from '../contacts';
import { asCount, comparisonType, typedValue } from './filter-values';
import {
  canonicalOperator,
  FieldRef,
  Operator,
  OPERATOR_ALIASES,
  OPERATORS,
  operatorsFor,
  ORDERING_OPERATORS,
  parseField,
  UNIT_OPERATORS,
  UNITS,
  VALUELESS_OPERATORS,
} from './filter.types';

/**
 * The filter tree (segment `condition`, campaign `audienceCondition`) is declared once, here
 * (`FILTER_TREE`, zod): the declaration gives the checks that need no project (422 items through
 * platform/http/declared-body.ts, one per field, paths like `condition.groups[0].filters[1].operator`),
 * the `FilterTree` type and the OpenAPI models `FilterTreeSchema`, `FilterGroupSchema` and
 * `FilterSchema`. What needs the project (its field types, segments, topics) is validate-filter.ts.
 */

/** Bounds that keep a tree cheap to validate, store and run. */
export const FILTER_LIMITS = { depth: 10, filters: 200, groups: 200, fieldLength: 256, stringValue: 1000, bytes: 32_768 } as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** A problem of one filter, at a path relative to the filter (`['operator']`). */
export type Report = (path: string[], code: string, message: string, received?: unknown) => void;

/** Ordering needs an ordered type; date operators need dates; contains needs text. */
export function checkOperatorType(ref: FieldRef & { kind: 'core' | 'data' }, op: Operator, value: unknown, fieldTypes: ReadonlyMap<string, FieldType>, report: Report): void {
  const type = comparisonType(ref, op, value, fieldTypes);
  const name = ref.kind === 'core' ? ref.name : `data.${ref.key}`;
  if (UNIT_OPERATORS.has(op) && type !== 'date') report(['operator'], 'invalid_operator', `${op} needs a date field; ${name} is ${type}`, op);
  else if (ORDERING_OPERATORS.has(op) && type === 'boolean') report(['operator'], 'invalid_operator', `${op} does not apply to ${name} (boolean)`, op);
  else if ((op === 'contains' || op === 'notContains') && ref.kind === 'core' && type !== 'string') report(['operator'], 'invalid_operator', `${op} does not apply to ${name} (${type})`, op);
}

/** A present value (a string, number or boolean) compared as the field's type. */
export function checkValueType(ref: FieldRef & { kind: 'core' | 'data' }, op: Operator, value: unknown, fieldTypes: ReadonlyMap<string, FieldType>, report: Report): void {
  if (op === 'contains' || op === 'notContains') {
    if (typeof value !== 'string' && typeof value !== 'number') report(['value'], 'invalid_type', 'must be a string', value);
    return;
  }
  const type = comparisonType(ref, op, value, fieldTypes);
  if (typedValue(type, value) === null) {
    const name = ref.kind === 'core' ? ref.name : `data.${ref.key}`;
    const expected = type === 'date' ? 'a date (YYYY-MM-DD or an ISO 8601 instant)' : `a ${type}`;
    report(['value'], 'invalid_type', `must be ${expected}: ${name} compares as ${type}`, value);
  }
}

const NO_KEYS: ReadonlyMap<string, FieldType> = new Map();

/** What a filter's operator asks of its `unit` and `value`, and what a core field's or topic's type asks (a `data.<key>` type is the project's: validate-filter.ts). */
function checkFilter(filter: { field: string; operator: string; value?: unknown; unit?: unknown }, ctx: z.RefinementCtx): void {
  const { field, operator, value, unit } = filter;
  const ref = parseField(field) as FieldRef;
  const op = canonicalOperator(operator) as Operator;
  const report: Report = (path, code, message, received) => issue(ctx, path, code, message, received);
  if (!operatorsFor(ref).has(op)) return report(['operator'], 'invalid_operator', `${operator} does not apply to ${field}; use one of ${[...operatorsFor(ref)].join(', ')}`, operator);
  if (UNIT_OPERATORS.has(op)) {
    if (unit === undefined || unit === null) report(['unit'], 'required', `unit is required with ${operator} (minutes, hours, days, weeks)`);
    else if (typeof unit !== 'string' || !has(UNITS, unit)) report(['unit'], 'invalid_enum', 'must be one of minutes, hours, days, weeks', unit);
    if (value === undefined || value === null) report(['value'], 'required', `value is required with ${operator} (a positive whole number of units)`);
    else if (asCount(value) === null) report(['value'], 'invalid_type', 'must be a positive whole number of units', value);
  } else if (!VALUELESS_OPERATORS.has(op)) {
    if (value === undefined || value === null) report(['value'], 'required', `value is required with ${operator}`);
    else if (typeof value === 'string' && value.length > FILTER_LIMITS.stringValue) report(['value'], 'too_long', `must be at most ${FILTER_LIMITS.stringValue} characters`);
    else if (!['string', 'number', 'boolean'].includes(typeof value)) report(['value'], 'invalid_type', 'must be a string, number or boolean', value);
    else if (ref.kind === 'core') checkValueType(ref, op, value, NO_KEYS, report);
  }
  if (ref.kind === 'core') checkOperatorType(ref, op, value, NO_KEYS, report);
  if (ref.kind === 'topic' && typeof value !== 'boolean' && value !== undefined && value !== null) report(['value'], 'invalid_type', `must be true or false: ${field} is a topic membership`, value);
}

const FIELDS = 'email, subscribed, createdAt, updatedAt, data.<key>, event.<name>, email.<sent|delivered|opened|clicked|bounced|complained>, segment.<id>, topics.<slug>';
const text = (required: string) =>
  z.string({ error: coded('required', required) }).refine((v) => v.length > 0, { message: required, params: { code: 'required' } });
/** The filter's own checks run once its field and operator are known (beside unknown keys of it). */
const fieldAndOperatorKnown = ({ value, issues }: { value: unknown; issues: readonly { path?: PropertyKey[] }[] }) =>
  isObject(value) && !issues.some((i) => i.path?.[0] === 'field' || i.path?.[0] === 'operator');

const FILTER = z
  .object(
    {
      field: text('field is required (a string)')
        .max(FILTER_LIMITS.fieldLength, { error: coded('too_long', `must be at most ${FILTER_LIMITS.fieldLength} characters`, true) })
        .refine((v) => parseField(v) !== null, { error: (iss) => `unknown field "${String(iss.input)}" (${FIELDS})`, params: { code: 'unknown_field' } })
        .meta({
          description:
            'What to compare: `email`, `subscribed`, `createdAt`, `updatedAt`, `data.<key>` (nested keys as `data.profile.tier`), `event.<name>` (event operators), ' +
            "`email.<sent|delivered|opened|clicked|bounced|complained>` (event operators over the contact's emails) or `segment.<segmentId>` (memberOfSegment, notMemberOfSegment)",
          example: 'data.plan',
        }),
      operator: text('operator is required (a string)')
        .superRefine((v, ctx) => {
          if (v.length > 0 && !canonicalOperator(v)) issue(ctx, [], 'unknown_operator', `unknown operator "${v.slice(0, 64)}"`, v.slice(0, 64));
        })
        .meta({
          description: `Comparison; ${Object.entries(OPERATOR_ALIASES)
            .map(([alias, op]) => `\`${alias}\` = ${op}`)
            .join(', ')}. Which operators apply depends on the field (event and email fields take the triggered* operators, segment fields the membership ones)`,
          enum: [...OPERATORS, ...Object.keys(OPERATOR_ALIASES)],
        }),
      // What value and unit must be depends on the operator (checkFilter); one it takes none of is ignored.
      value: z
        .unknown()
        .optional()
        .meta({
          description:
            'Value to compare with, typed like the field (numbers numerically, dates as ISO 8601 instants); a positive whole number of `unit`s with within, olderThan, triggeredWithin, ' +
            'triggeredOlderThan and notTriggeredWithin; omitted with exists, notExists, triggered, notTriggered, memberOfSegment and notMemberOfSegment',
          oneOf: [{ type: 'string', maxLength: FILTER_LIMITS.stringValue }, { type: 'number' }, { type: 'boolean' }],
        }),
      unit: z
        .unknown()
        .optional()
        .meta({ type: 'string', description: 'Time unit, required with within, olderThan, triggeredWithin, triggeredOlderThan and notTriggeredWithin', enum: Object.keys(UNITS) }),
    },
    { error: coded('invalid_type', 'must be an object {field, operator, value?, unit?}') },
  )
  .catchall(unknownKey('unknown_property', 'is not a property of a filter'))
  .superRefine(checkFilter, { when: fieldAndOperatorKnown })
  .meta({ id: 'FilterSchema' });

/** A nested tree: an object before its parts are read. */
const nested = (message: string) =>
  z.preprocess((raw, ctx) => {
    if (!isObject(raw)) issue(ctx, [], 'invalid_type', message, raw);
    return raw;
  }, TREE);

const GROUP = z
  .object(
    {
      filters: z
        .array(FILTER, { error: coded('invalid_type', 'must be an array of filters') })
        .optional()
        .meta({ description: 'Filters that must all match (AND); a group needs filters, conditions or both' }),
      get conditions() {
        return nested('must be a filter tree {logic, groups}')
          .optional()
          .meta({ description: `A nested tree, ANDed with this group's filters (at most ${FILTER_LIMITS.depth} levels deep)` });
      },
    },
    { error: coded('invalid_type', 'must be an object {filters, conditions?}') },
  )
  .catchall(unknownKey('unknown_property', 'is not a property of a group'))
  .superRefine(
    (group, ctx) => {
      if ((!Array.isArray(group.filters) || group.filters.length === 0) && group.conditions === undefined) issue(ctx, [], 'empty_group', 'a group needs filters or conditions');
    },
    { when: ({ value }) => isObject(value) },
  )
  .meta({ id: 'FilterGroupSchema' });

const TREE = z
  .object({
    logic: z
      .enum(['AND', 'OR'], { error: coded('invalid_enum', 'must be AND or OR') })
      .optional()
      .meta({ description: 'How the groups combine: AND (default) or OR' }),
    get groups() {
      return z
        .array(GROUP, { error: coded('invalid_type', 'must be an array of groups') })
        .meta({ description: `Groups of filters (at most ${FILTER_LIMITS.groups} groups and ${FILTER_LIMITS.filters} filters in the whole tree)` });
    },
  })
  .catchall(unknownKey('unknown_property', 'is not a property of a filter tree'))
  .meta({ id: 'FilterTreeSchema' });

/**
 * The bounds, read before the parts (so nothing deeper than they allow is walked): its size as
 * JSON (alone when over), the trees nested deeper than `depth` (each an item, its contents
 * unread), then the number of filters and groups in the whole tree.
 */
function checkBounds(raw: Record<string, unknown>, ctx: z.RefinementCtx): void {
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(raw));
  } catch {
    return issue(ctx, [], 'invalid_type', 'must be JSON');
  }
  if (bytes > FILTER_LIMITS.bytes) return issue(ctx, [], 'too_large', `must be at most ${FILTER_LIMITS.bytes} bytes as JSON (got ${bytes})`);
  const counts = { filters: 0, groups: 0 };
  const walk = (tree: Record<string, unknown>, path: PropertyKey[], depth: number): void => {
    if (depth > FILTER_LIMITS.depth) return issue(ctx, path, 'too_deep', `conditions nest at most ${FILTER_LIMITS.depth} levels`);
    if (!Array.isArray(tree.groups)) return;
    tree.groups.forEach((group: unknown, g) => {
      counts.groups++;
      if (!isObject(group)) return;
      if (Array.isArray(group.filters)) counts.filters += group.filters.length;
      if (isObject(group.conditions)) walk(group.conditions, [...path, 'groups', g, 'conditions'], depth + 1);
    });
  };
  walk(raw, [], 1);
  if (counts.filters > FILTER_LIMITS.filters) issue(ctx, [], 'too_many_filters', `must hold at most ${FILTER_LIMITS.filters} filters (got ${counts.filters})`);
  if (counts.groups > FILTER_LIMITS.groups) issue(ctx, [], 'too_many_groups', `must hold at most ${FILTER_LIMITS.groups} groups (got ${counts.groups})`);
}

/** A filter tree as a client sends it (and as it is stored): its checks, its type and its OpenAPI model. */
export const FILTER_TREE = z.preprocess((raw, ctx) => {
  if (!isObject(raw)) issue(ctx, [], 'invalid_type', 'must be an object {logic, groups}', raw);
  else checkBounds(raw, ctx);
  return raw;
}, TREE);

export type FilterTree = z.output<typeof TREE>;
export type FilterGroup = z.output<typeof GROUP>;
export type Filter = z.output<typeof FILTER>;

/** The OpenAPI model of `FILTER_TREE` (`@ApiProperty({ type: () => FilterTreeSchema })`), with `FilterGroupSchema` and `FilterSchema`. */
export const FilterTreeSchema = openApiModelOf(FILTER_TREE);

/** The tree's problems that need no project, one item per field (at most 50), paths from `root`; none for a tree of the declared shape. */
export function parseFilterTree(raw: unknown, root: string): FieldError[] {
  return parseDeclared(FILTER_TREE, raw, { at: root }).errors.slice(0, 50);
}

/** Every filter of a tree with its path from the tree (`groups[0].filters[1]`), depth first; tolerant of stored shapes (depth bounded, re-checked here). */
export function filtersWithPaths(tree: FilterTree, path = '', depth = 0): Array<{ filter: Filter; path: string }> {
  if (depth > FILTER_LIMITS.depth || !isObject(tree) || !Array.isArray(tree.groups)) return [];
  const out: Array<{ filter: Filter; path: string }> = [];
  (tree.groups as unknown[]).forEach((group, g) => {
    if (!isObject(group)) return;
    const at = `${path}${path ? '.' : ''}groups[${g}]`;
    if (Array.isArray(group.filters)) group.filters.forEach((filter: unknown, f) => isObject(filter) && out.push({ filter: filter as Filter, path: `${at}.filters[${f}]` }));
    if (group.conditions) out.push(...filtersWithPaths(group.conditions as FilterTree, `${at}.conditions`, depth + 1));
  });
  return out;
}

/** Every filter of a tree, depth first. */
export const filtersOf = (tree: FilterTree): Filter[] => filtersWithPaths(tree).map((f) => f.filter);

/** The distinct values of one kind of reference a tree's filters make. */
function referenced<K extends FieldRef['kind']>(tree: FilterTree, kind: K, value: (ref: Extract<FieldRef, { kind: K }>) => string): string[] {
  const out = new Set<string>();
  for (const f of filtersOf(tree)) {
    const ref = parseField(f.field);
    if (ref?.kind === kind) out.add(value(ref as Extract<FieldRef, { kind: K }>));
  }
  return [...out];
}

/** The segment ids a tree references (`segment.<id>`). */
export const referencedSegments = (tree: FilterTree): string[] => referenced(tree, 'segment', (r) => r.id);
/** The topic slugs a tree references (`topics.<slug>`). */
export const referencedTopics = (tree: FilterTree): string[] => referenced(tree, 'topic', (r) => r.slug);
/** The data keys a tree references (`data.<path>` → `<path>`). */
export const referencedDataKeys = (tree: FilterTree): string[] => referenced(tree, 'data', (r) => r.key);
