import type { ApiPropertyOptions } from '@nestjs/swagger';
import type { FieldError } from '../../platform/http/app-error';
import { openApiModel } from '../../platform/http/openapi-responses';
import type { FieldType } from '../contacts';
import { asCount, comparisonType, typedValue } from './filter-values';
import {
  canonicalOperator,
  FieldRef,
  filtersOf,
  FilterTree,
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

/** Bounds that keep a tree cheap to validate, store and run. */
export const FILTER_LIMITS = { depth: 10, filters: 200, groups: 200, fieldLength: 256, stringValue: 1000, bytes: 32_768 } as const;

/**
 * The filter tree's three objects, written once: their properties are the only keys the checks
 * below accept, and the OpenAPI models (`FilterTreeSchema`, `FilterGroupSchema`, `FilterSchema`:
 * segment `condition`, campaign `audienceCondition`) are built from them. What a value may be is
 * the checks' (422 naming the path of each problem), with the limits above.
 */
const FILTER_PROPERTIES = {
  field: {
    description:
      'What to compare: `email`, `subscribed`, `createdAt`, `updatedAt`, `data.<key>` (nested keys as `data.profile.tier`), `event.<name>` (event operators), ' +
      "`email.<sent|delivered|opened|clicked|bounced|complained>` (event operators over the contact's emails) or `segment.<segmentId>` (memberOfSegment, notMemberOfSegment)",
    type: String,
    maxLength: FILTER_LIMITS.fieldLength,
    example: 'data.plan',
  },
  operator: {
    description: `Comparison; ${Object.entries(OPERATOR_ALIASES)
      .map(([alias, op]) => `\`${alias}\` = ${op}`)
      .join(', ')}. Which operators apply depends on the field (event and email fields take the triggered* operators, segment fields the membership ones)`,
    type: String,
    enum: [...OPERATORS, ...Object.keys(OPERATOR_ALIASES)],
  },
  value: {
    required: false,
    description:
      'Value to compare with, typed like the field (numbers numerically, dates as ISO 8601 instants); a positive whole number of `unit`s with within, olderThan, triggeredWithin, ' +
      'triggeredOlderThan and notTriggeredWithin; omitted with exists, notExists, triggered, notTriggered, memberOfSegment and notMemberOfSegment',
    type: Object,
    oneOf: [{ type: 'string', maxLength: FILTER_LIMITS.stringValue }, { type: 'number' }, { type: 'boolean' }],
  },
  unit: { required: false, description: 'Time unit, required with within, olderThan, triggeredWithin, triggeredOlderThan and notTriggeredWithin', type: String, enum: Object.keys(UNITS) },
} satisfies Record<string, ApiPropertyOptions>;

const TREE_PROPERTIES = {
  logic: { required: false, description: 'How the groups combine: AND (default) or OR', type: String, enum: ['AND', 'OR'] },
  groups: { description: `Groups of filters (at most ${FILTER_LIMITS.groups} groups and ${FILTER_LIMITS.filters} filters in the whole tree)`, type: () => [FilterGroupSchema] },
} satisfies Record<string, ApiPropertyOptions>;

const GROUP_PROPERTIES = {
  filters: { required: false, description: 'Filters that must all match (AND); a group needs filters, conditions or both', type: () => [FilterSchema] },
  conditions: { required: false, description: `A nested tree, ANDed with this group's filters (at most ${FILTER_LIMITS.depth} levels deep)`, type: () => FilterTreeSchema },
} satisfies Record<string, ApiPropertyOptions>;

const TREE_KEYS = Object.keys(TREE_PROPERTIES);
const GROUP_KEYS = Object.keys(GROUP_PROPERTIES);
const FILTER_KEYS = Object.keys(FILTER_PROPERTIES);

/** OpenAPI models of the filter tree, from the property tables the checks read. */
export const FilterSchema = openApiModel('FilterSchema', FILTER_PROPERTIES);
export const FilterTreeSchema = openApiModel('FilterTreeSchema', TREE_PROPERTIES);
export const FilterGroupSchema = openApiModel('FilterGroupSchema', GROUP_PROPERTIES);

export interface SegmentDefinition {
  id: string;
  name: string;
  type: 'DYNAMIC' | 'STATIC';
  condition: FilterTree | null;
}

/** What semantic checks need from the database: key types and the referenced segments (transitively). */
export interface FilterLookup {
  fieldTypes: ReadonlyMap<string, FieldType>;
  segments: ReadonlyMap<string, SegmentDefinition>;
  /** The project's topics by slug (`topics.<slug>` must name one). */
  topics?: ReadonlyMap<string, unknown>;
  /** The segment being saved (a reference back to it is a cycle). */
  selfId?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const item = (field: string, code: string, message: string, received?: unknown): FieldError => ({ field, code, message, ...(received === undefined ? {} : { received }) });

/**
 * Checks a filter tree. Without `lookup` only its shape (fields, operators, units, values, limits);
 * with it also the value types against the keys' inferred types and the segment references
 * (existing in the project, no cycle). Returns one item per problem, `field` a dotted path from `root`.
 */
export function validateFilterTree(raw: unknown, root: string, lookup?: FilterLookup): FieldError[] {
  const errors: FieldError[] = [];
  if (!isObject(raw)) return [item(root, 'invalid_type', 'must be an object {logic, groups}', raw)];
  let bytes = 0;
  try {
    bytes = Buffer.byteLength(JSON.stringify(raw));
  } catch {
    return [item(root, 'invalid_type', 'must be JSON')];
  }
  if (bytes > FILTER_LIMITS.bytes) return [item(root, 'too_large', `must be at most ${FILTER_LIMITS.bytes} bytes as JSON (got ${bytes})`)];
  const counts = { filters: 0, groups: 0 };
  walkTree(raw, root, 1, counts, errors, lookup);
  if (counts.filters > FILTER_LIMITS.filters) errors.push(item(root, 'too_many_filters', `must hold at most ${FILTER_LIMITS.filters} filters (got ${counts.filters})`));
  if (counts.groups > FILTER_LIMITS.groups) errors.push(item(root, 'too_many_groups', `must hold at most ${FILTER_LIMITS.groups} groups (got ${counts.groups})`));
  return errors.slice(0, 50);
}

function walkTree(tree: Record<string, unknown>, at: string, depth: number, counts: { filters: number; groups: number }, errors: FieldError[], lookup?: FilterLookup): void {
  if (depth > FILTER_LIMITS.depth) {
    errors.push(item(at, 'too_deep', `conditions nest at most ${FILTER_LIMITS.depth} levels`));
    return;
  }
  for (const key of Object.keys(tree)) if (!TREE_KEYS.includes(key)) errors.push(item(`${at}.${key}`, 'unknown_property', 'is not a property of a filter tree'));
  if (tree.logic !== undefined && tree.logic !== 'AND' && tree.logic !== 'OR') errors.push(item(`${at}.logic`, 'invalid_enum', 'must be AND or OR', tree.logic));
  if (!Array.isArray(tree.groups)) {
    errors.push(item(`${at}.groups`, 'invalid_type', 'must be an array of groups', tree.groups));
    return;
  }
  tree.groups.forEach((group: unknown, g) => {
    const gat = `${at}.groups[${g}]`;
    counts.groups++;
    if (!isObject(group)) return void errors.push(item(gat, 'invalid_type', 'must be an object {filters, conditions?}', group));
    for (const key of Object.keys(group)) if (!GROUP_KEYS.includes(key)) errors.push(item(`${gat}.${key}`, 'unknown_property', 'is not a property of a group'));
    const filters = group.filters;
    if (filters !== undefined && !Array.isArray(filters)) errors.push(item(`${gat}.filters`, 'invalid_type', 'must be an array of filters', filters));
    const list = Array.isArray(filters) ? filters : [];
    if (list.length === 0 && group.conditions === undefined) errors.push(item(gat, 'empty_group', 'a group needs filters or conditions'));
    list.forEach((filter: unknown, f) => {
      counts.filters++;
      if (counts.filters > FILTER_LIMITS.filters) return;
      checkFilter(filter, `${gat}.filters[${f}]`, errors, lookup);
    });
    if (group.conditions !== undefined) {
      if (!isObject(group.conditions)) errors.push(item(`${gat}.conditions`, 'invalid_type', 'must be a filter tree {logic, groups}', group.conditions));
      else walkTree(group.conditions, `${gat}.conditions`, depth + 1, counts, errors, lookup);
    }
  });
}

function checkFilter(raw: unknown, at: string, errors: FieldError[], lookup?: FilterLookup): void {
  if (!isObject(raw)) return void errors.push(item(at, 'invalid_type', 'must be an object {field, operator, value?, unit?}', raw));
  for (const key of Object.keys(raw)) if (!FILTER_KEYS.includes(key)) errors.push(item(`${at}.${key}`, 'unknown_property', 'is not a property of a filter'));
  const { field, operator, value, unit } = raw;
  if (typeof field !== 'string' || field.length === 0) return void errors.push(item(`${at}.field`, 'required', 'field is required (a string)', field));
  if (field.length > FILTER_LIMITS.fieldLength) return void errors.push(item(`${at}.field`, 'too_long', `must be at most ${FILTER_LIMITS.fieldLength} characters`));
  const ref = parseField(field);
  if (!ref) return void errors.push(item(`${at}.field`, 'unknown_field', `unknown field "${field}" (email, subscribed, createdAt, updatedAt, data.<key>, event.<name>, email.<sent|delivered|opened|clicked|bounced|complained>, segment.<id>, topics.<slug>)`, field));
  if (typeof operator !== 'string' || operator.length === 0) return void errors.push(item(`${at}.operator`, 'required', 'operator is required (a string)', operator));
  const op = canonicalOperator(operator);
  if (!op) return void errors.push(item(`${at}.operator`, 'unknown_operator', `unknown operator "${operator.slice(0, 64)}"`, operator.slice(0, 64)));
  if (!operatorsFor(ref).has(op)) return void errors.push(item(`${at}.operator`, 'invalid_operator', `${operator} does not apply to ${field}; use one of ${[...operatorsFor(ref)].join(', ')}`, operator));

  if (UNIT_OPERATORS.has(op)) {
    if (unit === undefined || unit === null) errors.push(item(`${at}.unit`, 'required', `unit is required with ${operator} (minutes, hours, days, weeks)`));
    else if (typeof unit !== 'string' || !Object.prototype.hasOwnProperty.call(UNITS, unit)) errors.push(item(`${at}.unit`, 'invalid_enum', 'must be one of minutes, hours, days, weeks', unit));
    if (value === undefined || value === null) errors.push(item(`${at}.value`, 'required', `value is required with ${operator} (a positive whole number of units)`));
    else if (asCount(value) === null) errors.push(item(`${at}.value`, 'invalid_type', 'must be a positive whole number of units', value));
  } else if (!VALUELESS_OPERATORS.has(op)) {
    if (value === undefined || value === null) errors.push(item(`${at}.value`, 'required', `value is required with ${operator}`));
    else if (typeof value === 'string' && value.length > FILTER_LIMITS.stringValue) errors.push(item(`${at}.value`, 'too_long', `must be at most ${FILTER_LIMITS.stringValue} characters`));
    else if (!['string', 'number', 'boolean'].includes(typeof value)) errors.push(item(`${at}.value`, 'invalid_type', 'must be a string, number or boolean', value));
    else checkValueType(ref, op, value, `${at}.value`, errors, lookup);
  }
  if (ref.kind === 'core' || ref.kind === 'data') checkOperatorType(ref, op, value, at, errors, lookup);
  if (ref.kind === 'segment' && lookup) checkSegmentRef(ref.id, `${at}.field`, errors, lookup);
  if (ref.kind === 'topic') {
    if (typeof value !== 'boolean' && value !== undefined && value !== null) errors.push(item(`${at}.value`, 'invalid_type', `must be true or false: ${field} is a topic membership`, value));
    if (lookup?.topics && !lookup.topics.has(ref.slug)) errors.push(item(`${at}.field`, 'unknown_topic', `no topic with the slug "${ref.slug}" in this project`, field));
  }
}

/** Ordering needs an ordered type; date operators need dates; contains needs text. */
function checkOperatorType(ref: FieldRef & { kind: 'core' | 'data' }, op: Operator, value: unknown, at: string, errors: FieldError[], lookup?: FilterLookup): void {
  if (ref.kind === 'data' && !lookup) return;
  const type = comparisonType(ref, op, value, lookup?.fieldTypes ?? new Map());
  const name = ref.kind === 'core' ? ref.name : `data.${ref.key}`;
  if (UNIT_OPERATORS.has(op) && type !== 'date') errors.push(item(`${at}.operator`, 'invalid_operator', `${op} needs a date field; ${name} is ${type}`, op));
  else if (ORDERING_OPERATORS.has(op) && type === 'boolean') errors.push(item(`${at}.operator`, 'invalid_operator', `${op} does not apply to ${name} (boolean)`, op));
  else if ((op === 'contains' || op === 'notContains') && ref.kind === 'core' && type !== 'string') errors.push(item(`${at}.operator`, 'invalid_operator', `${op} does not apply to ${name} (${type})`, op));
}

function checkValueType(ref: FieldRef, op: Operator, value: unknown, at: string, errors: FieldError[], lookup?: FilterLookup): void {
  if (ref.kind !== 'core' && ref.kind !== 'data') return;
  if (ref.kind === 'data' && !lookup) return;
  if (op === 'contains' || op === 'notContains') {
    if (typeof value !== 'string' && typeof value !== 'number') errors.push(item(at, 'invalid_type', 'must be a string', value));
    return;
  }
  const type = comparisonType(ref, op, value, lookup?.fieldTypes ?? new Map());
  if (typedValue(type, value) === null) {
    const name = ref.kind === 'core' ? ref.name : `data.${ref.key}`;
    const expected = type === 'date' ? 'a date (YYYY-MM-DD or an ISO 8601 instant)' : `a ${type}`;
    errors.push(item(at, 'invalid_type', `must be ${expected}: ${name} compares as ${type}`, value));
  }
}

function checkSegmentRef(id: string, at: string, errors: FieldError[], lookup: FilterLookup): void {
  if (id === lookup.selfId) return void errors.push(item(at, 'segment_cycle', `a segment cannot reference itself (segment.${id})`, `segment.${id}`));
  if (!lookup.segments.has(id)) return void errors.push(item(at, 'unknown_segment', `no segment ${id} in this project`, `segment.${id}`));
  const cycle = findCycle(id, lookup);
  if (cycle) errors.push(item(at, 'segment_cycle', `segment references form a cycle: ${cycle.join(' → ')}`, `segment.${id}`));
}

/** A reference path from `start` that returns to the saved segment or loops, or null. */
export function findCycle(start: string, lookup: Pick<FilterLookup, 'segments' | 'selfId'>): string[] | null {
  const onPath: string[] = [];
  const done = new Set<string>();
  const visit = (id: string): string[] | null => {
    if (id === lookup.selfId || onPath.includes(id)) return [...onPath, id];
    if (done.has(id)) return null;
    const def = lookup.segments.get(id);
    if (!def || def.type !== 'DYNAMIC' || !def.condition) return null;
    onPath.push(id);
    for (const f of filtersOf(def.condition)) {
      const ref = parseField(typeof f.field === 'string' ? f.field : '');
      if (ref?.kind === 'segment') {
        const found = visit(ref.id);
        if (found) return found;
      }
    }
    onPath.pop();
    done.add(id);
    return null;
  };
  return visit(start);
}

