import type { FieldError } from '../../platform/http/app-error';
import type { FieldType } from '../contacts';
import { checkOperatorType, checkValueType, Filter, FilterTree, filtersOf, filtersWithPaths, parseFilterTree, Report } from './filter-tree';
import { canonicalOperator, FieldRef, Operator, parseField, UNIT_OPERATORS, VALUELESS_OPERATORS } from './filter.types';

export interface SegmentDefinition {
  id: string;
  name: string;
  type: 'DYNAMIC' | 'STATIC';
  condition: FilterTree | null;
}

/** What the checks of a tree against its project need from the database: key types and the referenced segments (transitively). */
export interface FilterLookup {
  fieldTypes: ReadonlyMap<string, FieldType>;
  segments: ReadonlyMap<string, SegmentDefinition>;
  /** The project's topics by slug (`topics.<slug>` must name one). */
  topics?: ReadonlyMap<string, unknown>;
  /** The segment being saved (a reference back to it is a cycle). */
  selfId?: string;
}

/**
 * Checks a filter tree: its declaration (`FILTER_TREE`, filter-tree.ts: shape, fields, operators,
 * units, values, limits) and, with `lookup` and a tree of that shape, what needs the project: the
 * values and operators of `data.<key>` filters against the keys' inferred types, the segment
 * references (existing in the project, no cycle) and the topics named. Returns one item per
 * problem, `field` a path from `root` (`condition.groups[0].filters[1].value`).
 */
export function validateFilterTree(raw: unknown, root: string, lookup?: FilterLookup): FieldError[] {
  const shape = parseFilterTree(raw, root);
  if (shape.length > 0 || !lookup) return shape;
  const errors: FieldError[] = [];
  for (const { filter, path } of filtersWithPaths(raw as FilterTree, root)) {
    const report: Report = (at, code, message, received) => errors.push({ field: [path, ...at].join('.'), code, message, ...(received === undefined ? {} : { received }) });
    checkInProject(filter, lookup, report);
  }
  return errors.slice(0, 50);
}

function checkInProject(filter: Filter, lookup: FilterLookup, report: Report): void {
  const ref = parseField(filter.field) as FieldRef;
  const op = canonicalOperator(filter.operator) as Operator;
  if (ref.kind === 'data') {
    if (!UNIT_OPERATORS.has(op) && !VALUELESS_OPERATORS.has(op)) checkValueType(ref, op, filter.value, lookup.fieldTypes, report);
    checkOperatorType(ref, op, filter.value, lookup.fieldTypes, report);
  }
  if (ref.kind === 'segment') checkSegmentRef(ref.id, lookup, report);
  if (ref.kind === 'topic' && lookup.topics && !lookup.topics.has(ref.slug)) report(['field'], 'unknown_topic', `no topic with the slug "${ref.slug}" in this project`, filter.field);
}

function checkSegmentRef(id: string, lookup: FilterLookup, report: Report): void {
  if (id === lookup.selfId) return report(['field'], 'segment_cycle', `a segment cannot reference itself (segment.${id})`, `segment.${id}`);
  if (!lookup.segments.has(id)) return report(['field'], 'unknown_segment', `no segment ${id} in this project`, `segment.${id}`);
  const cycle = findCycle(id, lookup);
  if (cycle) report(['field'], 'segment_cycle', `segment references form a cycle: ${cycle.join(' → ')}`, `segment.${id}`);
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
