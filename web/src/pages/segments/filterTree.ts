/**
 * The segment / audience filter tree of the API (decisions.md "Segments and filters") and the
 * pure operations the filter builder performs on it. No React here: tested in filterTree.test.ts.
 *
 * Tree: `{logic: AND|OR, groups: [{filters: [...], conditions?: <tree>}]}`. A group is addressed
 * by its path of indices: `[1]` is the second top-level group, `[1, 0]` the first group of the
 * second group's nested `conditions`.
 */
import type { components } from '../../api/schema';
export type Logic = 'AND' | 'OR';
export type Unit = 'minutes' | 'hours' | 'days' | 'weeks';

export interface Filter {
  field: string;
  operator: string;
  value?: unknown;
  unit?: Unit;
}
export interface FilterGroup {
  filters: Filter[];
  conditions?: FilterTree;
}
export interface FilterTree {
  logic: Logic;
  groups: FilterGroup[];
}
export type GroupPath = number[];

export type FieldFamily = 'string' | 'number' | 'boolean' | 'date' | 'event' | 'email' | 'segment';

export const UNITS: Unit[] = ['minutes', 'hours', 'days', 'weeks'];
export const EMAIL_EVENTS = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;

export const OPERATOR_LABELS: Record<string, string> = {
  equals: 'is',
  notEquals: 'is not',
  contains: 'contains',
  notContains: 'does not contain',
  greaterThan: 'is greater than',
  lessThan: 'is less than',
  greaterThanOrEqual: 'is at least',
  lessThanOrEqual: 'is at most',
  exists: 'is set',
  notExists: 'is not set',
  within: 'is within the last',
  olderThan: 'is older than',
  triggered: 'happened at least once',
  triggeredWithin: 'happened within the last',
  triggeredOlderThan: 'happened before the last',
  notTriggered: 'never happened',
  notTriggeredWithin: 'did not happen within the last',
  memberOfSegment: 'is a member',
  notMemberOfSegment: 'is not a member',
};

const COMPARE = ['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual'];
const PRESENCE = ['exists', 'notExists'];
const EVENT_OPS = ['triggered', 'triggeredWithin', 'triggeredOlderThan', 'notTriggered', 'notTriggeredWithin'];

export const OPERATORS_BY_FAMILY: Record<FieldFamily, string[]> = {
  string: ['equals', 'notEquals', 'contains', 'notContains', ...PRESENCE],
  number: ['equals', 'notEquals', ...COMPARE, ...PRESENCE],
  boolean: ['equals', 'notEquals', ...PRESENCE],
  date: ['within', 'olderThan', ...COMPARE, 'equals', 'notEquals', ...PRESENCE],
  event: EVENT_OPS,
  email: EVENT_OPS,
  segment: ['memberOfSegment', 'notMemberOfSegment'],
};

const NO_VALUE = new Set(['exists', 'notExists', 'triggered', 'notTriggered', 'memberOfSegment', 'notMemberOfSegment']);
const WITH_UNIT = new Set(['within', 'olderThan', 'triggeredWithin', 'triggeredOlderThan', 'notTriggeredWithin']);

export const needsValue = (operator: string) => !NO_VALUE.has(operator);
export const needsUnit = (operator: string) => WITH_UNIT.has(operator);

/** Field types known from GET /contacts/fields (`data.<key>` → its inferred type). */
export type FieldTypes = Record<string, 'string' | 'number' | 'boolean' | 'date'>;

export function fieldFamily(field: string, types: FieldTypes = {}): FieldFamily {
  if (field.startsWith('event.')) return 'event';
  if (field.startsWith('segment.')) return 'segment';
  if (/^email\.(sent|delivered|opened|clicked|bounced|complained)$/.test(field)) return 'email';
  if (field === 'email') return 'string';
  if (field === 'subscribed') return 'boolean';
  if (field === 'createdAt' || field === 'updatedAt') return 'date';
  return types[field] ?? 'string';
}

export function defaultOperator(field: string, types: FieldTypes = {}): string {
  return OPERATORS_BY_FAMILY[fieldFamily(field, types)][0];
}

export const emptyFilter = (field = 'email', types: FieldTypes = {}): Filter => ({ field, operator: defaultOperator(field, types), value: '' });
export const emptyGroup = (): FilterGroup => ({ filters: [emptyFilter()] });
export const emptyTree = (): FilterTree => ({ logic: 'AND', groups: [emptyGroup()] });

/** Copy-on-write update of the group at `path`. */
function mapGroup(tree: FilterTree, path: GroupPath, fn: (g: FilterGroup) => FilterGroup): FilterTree {
  if (path.length === 0) throw new Error('empty group path');
  const [head, ...rest] = path;
  if (head < 0 || head >= tree.groups.length) throw new Error(`no group at ${path.join('.')}`);
  const groups = tree.groups.map((g, i) => {
    if (i !== head) return g;
    if (rest.length === 0) return fn(g);
    if (!g.conditions) throw new Error(`no nested group at ${path.join('.')}`);
    return { ...g, conditions: mapGroup(g.conditions, rest, fn) };
  });
  return { ...tree, groups };
}

export function getGroup(tree: FilterTree, path: GroupPath): FilterGroup {
  let t = tree;
  let g: FilterGroup | undefined;
  for (const i of path) {
    g = t.groups[i];
    if (!g) throw new Error(`no group at ${path.join('.')}`);
    if (g.conditions) t = g.conditions;
  }
  if (!g) throw new Error('empty group path');
  return g;
}

export function setLogic(tree: FilterTree, treePath: GroupPath, logic: Logic): FilterTree {
  if (treePath.length === 0) return { ...tree, logic };
  return mapGroup(tree, treePath, (g) => (g.conditions ? { ...g, conditions: { ...g.conditions, logic } } : g));
}

/** Adds a group to the tree at `treePath` (`[]` root, else nested conditions of that group, created if absent). */
export function addGroup(tree: FilterTree, treePath: GroupPath = []): FilterTree {
  if (treePath.length === 0) return { ...tree, groups: [...tree.groups, emptyGroup()] };
  return mapGroup(tree, treePath, (g) => ({ ...g, conditions: g.conditions ? { ...g.conditions, groups: [...g.conditions.groups, emptyGroup()] } : { logic: 'OR', groups: [emptyGroup()] } }));
}

export function removeGroup(tree: FilterTree, path: GroupPath): FilterTree {
  const parent = path.slice(0, -1);
  const index = path[path.length - 1];
  if (parent.length === 0) return { ...tree, groups: tree.groups.filter((_, i) => i !== index) };
  return mapGroup(tree, parent, (g) => {
    if (!g.conditions) return g;
    const groups = g.conditions.groups.filter((_, i) => i !== index);
    return groups.length ? { ...g, conditions: { ...g.conditions, groups } } : { filters: g.filters };
  });
}

export function addFilter(tree: FilterTree, path: GroupPath, filter: Filter = emptyFilter()): FilterTree {
  return mapGroup(tree, path, (g) => ({ ...g, filters: [...g.filters, filter] }));
}

export function removeFilter(tree: FilterTree, path: GroupPath, index: number): FilterTree {
  return mapGroup(tree, path, (g) => ({ ...g, filters: g.filters.filter((_, i) => i !== index) }));
}

/**
 * Changes one filter. A new field resets the operator when the old one does not apply to the
 * field's family; an operator without value or unit drops them; one with a unit gets `days`.
 */
export function updateFilter(tree: FilterTree, path: GroupPath, index: number, patch: Partial<Filter>, types: FieldTypes = {}): FilterTree {
  return mapGroup(tree, path, (g) => ({
    ...g,
    filters: g.filters.map((f, i) => {
      if (i !== index) return f;
      const next: Filter = { ...f, ...patch };
      if (patch.field !== undefined && patch.field !== f.field) {
        const ops = OPERATORS_BY_FAMILY[fieldFamily(next.field, types)];
        if (!ops.includes(next.operator)) next.operator = ops[0];
        if (patch.value === undefined && fieldFamily(next.field, types) !== fieldFamily(f.field, types)) next.value = '';
      }
      if (!needsValue(next.operator)) delete next.value;
      else if (next.value === undefined) next.value = '';
      if (needsUnit(next.operator)) next.unit = next.unit ?? 'days';
      else delete next.unit;
      return next;
    }),
  }));
}

export interface TreeProblem {
  path: GroupPath;
  index?: number;
  message: string;
}

/** What keeps the tree from being sent (shown beside the filter, and no count is asked for). */
export function problems(tree: FilterTree, path: GroupPath = []): TreeProblem[] {
  const out: TreeProblem[] = [];
  if (tree.groups.length === 0) out.push({ path, message: 'Add at least one group of filters.' });
  tree.groups.forEach((g, gi) => {
    const gp = [...path, gi];
    if (g.filters.length === 0 && !g.conditions?.groups.length) out.push({ path: gp, message: 'This group is empty: add a filter or remove the group.' });
    g.filters.forEach((f, fi) => {
      if (!f.field || f.field.endsWith('.')) out.push({ path: gp, index: fi, message: 'Choose a field.' });
      else if (needsValue(f.operator) && (f.value === '' || f.value === undefined || f.value === null || (typeof f.value === 'number' && Number.isNaN(f.value))))
        out.push({ path: gp, index: fi, message: 'Enter a value.' });
    });
    if (g.conditions) out.push(...problems(g.conditions, gp));
  });
  return out;
}

function coerce(f: Filter, types: FieldTypes): unknown {
  const v = f.value;
  const family = fieldFamily(f.field, types);
  if (needsUnit(f.operator) || family === 'number') {
    const n = typeof v === 'number' ? v : Number(String(v).trim());
    return Number.isFinite(n) && String(v).trim() !== '' ? n : v;
  }
  if (family === 'boolean') return v === true || v === 'true' ? true : v === false || v === 'false' ? false : v;
  return typeof v === 'string' ? v.trim() : v;
}

export type ApiFilterTree = components['schemas']['FilterTreeSchema'];
type ApiFilter = components['schemas']['FilterSchema'];

/** The tree as the API takes it: values typed by field, no value/unit where the operator takes none, empty nested trees dropped. */
export function toApiTree(tree: FilterTree, types: FieldTypes = {}): ApiFilterTree {
  return {
    logic: tree.logic,
    groups: tree.groups.map((g) => {
      const out: components['schemas']['FilterGroupSchema'] = {
        filters: g.filters.map((f) => {
          // Operators and values go as the builder holds them: one the API refuses comes back as a 422 at `condition`.
          const filter: ApiFilter = { field: f.field, operator: f.operator as ApiFilter['operator'] };
          if (needsValue(f.operator)) filter.value = coerce(f, types) as ApiFilter['value'];
          if (needsUnit(f.operator)) filter.unit = f.unit ?? 'days';
          return filter;
        }),
      };
      if (g.conditions && g.conditions.groups.length) out.conditions = toApiTree(g.conditions, types);
      return out;
    }),
  };
}

const ALIASES: Record<string, string> = { gt: 'greaterThan', lt: 'lessThan', gte: 'greaterThanOrEqual', lte: 'lessThanOrEqual' };

/** A tree read from the API, ready for the builder (aliases spelled out, missing arrays filled). */
export function fromApiTree(raw: unknown): FilterTree {
  const t = (raw ?? {}) as Partial<FilterTree>;
  return {
    logic: t.logic === 'OR' ? 'OR' : 'AND',
    groups: (Array.isArray(t.groups) ? t.groups : []).map((g) => {
      const out: FilterGroup = {
        filters: (Array.isArray(g?.filters) ? g.filters : []).map((f) => {
          const operator = ALIASES[f.operator] ?? f.operator;
          const filter: Filter = { field: f.field, operator };
          if (needsValue(operator)) filter.value = f.value === undefined || f.value === null ? '' : f.value;
          if (needsUnit(operator)) filter.unit = f.unit ?? 'days';
          return filter;
        }),
      };
      if (g?.conditions) out.conditions = fromApiTree(g.conditions);
      return out;
    }),
  };
}

/** One line of words for a tree (lists, summaries). */
export function describeTree(tree: FilterTree): string {
  const group = (g: FilterGroup): string => {
    const parts = g.filters.map((f) => `${f.field} ${OPERATOR_LABELS[f.operator] ?? f.operator}${needsValue(f.operator) ? ` ${String(f.value)}` : ''}${needsUnit(f.operator) ? ` ${f.unit}` : ''}`);
    if (g.conditions?.groups.length) parts.push(`(${describeTree(g.conditions)})`);
    return parts.join(' and ');
  };
  return tree.groups.map(group).join(tree.logic === 'OR' ? ' or ' : ' and ');
}
