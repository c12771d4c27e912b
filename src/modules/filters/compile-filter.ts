import { Fragment, join, raw, sql } from '../../platform/database/sql-fragment';
import type { FieldType } from '../contacts';
import { contactEmailActivitySql } from '../emails';
import { contactEventsSql } from '../events';
import { topicMemberSql, type TopicRule } from '../topics';
import { asCount, comparisonType, TypedValue, typedValue } from './filter-values';
import { FILTER_LIMITS, Filter, FilterTree } from './filter-tree';
import { canonicalOperator, FieldRef, Operator, parseField, UNITS, Unit } from './filter.types';
import type { SegmentDefinition } from './validate-filter';

/** What compiling needs besides the tree: the project's key types and the segments it references (transitively). */
export interface CompileContext {
  fieldTypes: ReadonlyMap<string, FieldType>;
  segments: ReadonlyMap<string, SegmentDefinition>;
  /**
   * Whether contact `c` is a stored member of a STATIC segment in `segments`: segments hands its own
   * SQL (`storedMemberSql`), so the compiler names no table of theirs. Absent: none matches.
   */
  storedMembers?: (segmentId: string) => Fragment;
  /** The project's topics the trees name (`topics.<slug>`); a slug not here matches nothing. */
  topics?: ReadonlyMap<string, TopicRule>;
  /** The instant `within`/`olderThan` count back from (default: now). */
  now?: Date;
}

const TRUE = raw('TRUE');
const FALSE = raw('FALSE');

/**
 * One parameterised boolean SQL condition over alias `c` (table `contacts`) for a validated tree.
 * Every filter yields TRUE or FALSE, never NULL (a missing field is FALSE; only `notExists`
 * matches it), so the result can be negated and combined safely. Stored trees that no longer fit
 * (a key retyped, a segment gone) compile to conditions that match nothing rather than errors.
 */
export function compileFilter(projectId: string, tree: FilterTree, ctx: CompileContext): Fragment {
  return new Compiler(projectId, ctx).tree(tree, 0);
}

/** One filter `{field, operator, value, unit}` as a condition over `c` (workflow CONDITION steps). */
export function compileSingleFilter(projectId: string, filter: Filter, ctx: CompileContext): Fragment {
  return new Compiler(projectId, ctx).filter(filter);
}

class Compiler {
  private readonly now: Date;
  private readonly visiting: string[] = [];

  constructor(
    private readonly projectId: string,
    private readonly ctx: CompileContext,
  ) {
    this.now = ctx.now ?? new Date();
  }

  tree(tree: FilterTree, depth: number): Fragment {
    if (depth > FILTER_LIMITS.depth || !Array.isArray(tree?.groups)) return FALSE;
    if (tree.groups.length === 0) return TRUE;
    const groups = tree.groups.map((group) => {
      const parts = (group.filters ?? []).map((f) => this.filter(f));
      if (group.conditions) parts.push(sql`(${this.tree(group.conditions, depth + 1)})`);
      return parts.length === 0 ? TRUE : sql`(${join(parts, ' AND ')})`;
    });
    return join(groups, tree.logic === 'OR' ? ' OR ' : ' AND ');
  }

  filter(filter: Filter): Fragment {
    const ref = typeof filter.field === 'string' ? parseField(filter.field) : null;
    const op = typeof filter.operator === 'string' ? canonicalOperator(filter.operator) : null;
    if (!ref || !op) return FALSE;
    switch (ref.kind) {
      case 'event': {
        const { rows, at } = contactEventsSql(this.projectId, ref.name);
        return this.activity(rows, at, op, filter);
      }
      case 'email': {
        const { rows, at } = contactEmailActivitySql(this.projectId, ref.activity);
        return this.activity(rows, at, op, filter);
      }
      case 'segment':
        return this.membership(ref.id, op);
      case 'topic':
        return this.topic(ref.slug, op, filter.value);
      case 'core':
      case 'data':
        return this.value(ref, op, filter);
    }
  }

  /** `event.<name>` / `email.<activity>`: EXISTS over the contact's rows (semi-joins under AND). */
  private activity(rows: Fragment, at: Fragment, op: Operator, filter: Filter): Fragment {
    if (op === 'triggered') return sql`EXISTS (${rows})`;
    if (op === 'notTriggered') return sql`NOT EXISTS (${rows})`;
    const since = this.since(filter);
    if (!since) return FALSE;
    if (op === 'triggeredWithin') return sql`EXISTS (${rows} AND ${at} >= ${since}::timestamptz)`;
    if (op === 'triggeredOlderThan') return sql`EXISTS (${rows} AND ${at} < ${since}::timestamptz)`;
    if (op === 'notTriggeredWithin') return sql`NOT EXISTS (${rows} AND ${at} >= ${since}::timestamptz)`;
    return FALSE;
  }

  /** `topics.<slug>`: effective membership (`equals true`), or its negation (`equals false`, `notEquals true`). */
  private topic(slug: string, op: Operator, value: unknown): Fragment {
    const rule = this.ctx.topics?.get(slug);
    if (!rule || typeof value !== 'boolean' || (op !== 'equals' && op !== 'notEquals')) return FALSE;
    const member = topicMemberSql('c.topics', rule);
    return value === (op === 'equals') ? member : sql`NOT (${member})`;
  }

  /** `segment.<id>`: a DYNAMIC segment's condition inlined, a STATIC segment's stored members. */
  private membership(id: string, op: Operator): Fragment {
    const member = this.memberOf(id);
    if (op === 'memberOfSegment') return member;
    if (op === 'notMemberOfSegment') return sql`NOT (${member})`;
    return FALSE;
  }

  private memberOf(id: string): Fragment {
    const def = this.ctx.segments.get(id);
    if (!def || this.visiting.includes(id)) return FALSE;
    if (def.type === 'STATIC') return this.ctx.storedMembers?.(id) ?? FALSE;
    if (!def.condition) return FALSE;
    this.visiting.push(id);
    try {
      return sql`(${this.tree(def.condition, this.visiting.length)})`;
    } finally {
      this.visiting.pop();
    }
  }

  /** The instant N units before now, for the unit operators. */
  private since(filter: Filter): string | null {
    const n = asCount(filter.value);
    const unit = typeof filter.unit === 'string' && Object.prototype.hasOwnProperty.call(UNITS, filter.unit) ? UNITS[filter.unit as Unit] : null;
    if (n === null || unit === null) return null;
    const ms = this.now.getTime() - n * unit;
    return new Date(Math.max(ms, -8.64e15)).toISOString();
  }

  private value(ref: FieldRef & { kind: 'core' | 'data' }, op: Operator, filter: Filter): Fragment {
    const type = comparisonType(ref, op, filter.value, this.ctx.fieldTypes);
    const view = ref.kind === 'core' ? new CoreView(ref.column, type) : new DataView(ref.path, type);
    switch (op) {
      case 'exists':
        return view.present();
      case 'notExists':
        return sql`NOT (${view.present()})`;
      case 'contains':
      case 'notContains': {
        const needle = typeof filter.value === 'string' ? filter.value : typeof filter.value === 'number' ? String(filter.value) : null;
        if (needle === null) return FALSE;
        const match = view.contains(`%${needle.replace(/[\\%_]/g, '\\$&')}%`);
        return op === 'contains' ? match : sql`(${view.present()} AND NOT ${match})`;
      }
      case 'within':
      case 'olderThan': {
        const since = this.since(filter);
        if (!since || type !== 'date') return FALSE;
        return op === 'within' ? view.between(since, this.now.toISOString()) : view.compare('<', since);
      }
      default: {
        const value = typedValue(type, filter.value);
        if (!value) return FALSE;
        const eq = view.equals(value);
        if (op === 'equals') return eq;
        if (op === 'notEquals') return sql`(${view.present()} AND NOT ${eq})`;
        return view.order(op, value);
      }
    }
  }
}

const ORDER_SQL: Partial<Record<Operator, '>' | '<' | '>=' | '<='>> = { greaterThan: '>', lessThan: '<', greaterThanOrEqual: '>=', lessThanOrEqual: '<=' };

/** Shared comparison logic over a typed SQL expression (`typed()`), NULL-free results. */
abstract class View {
  constructor(protected readonly type: FieldType) {}
  abstract present(): Fragment;
  /** The value as its comparison type (numeric, boolean, text, or an ISO instant text / timestamptz), NULL when of another type. */
  protected abstract typed(): Fragment;
  protected abstract param(value: string | number | boolean): Fragment;
  abstract contains(pattern: string): Fragment;

  equals(value: TypedValue): Fragment {
    if (value.type === 'date') {
      if (value.end) return this.range(value.start, value.end);
      return this.compare('=', value.start);
    }
    return this.compare('=', value.value);
  }

  order(op: Operator, value: TypedValue): Fragment {
    const symbol = ORDER_SQL[op];
    if (!symbol || value.type === 'boolean') return FALSE;
    if (value.type !== 'date') return this.compare(symbol, value.value);
    // A date without time is its whole UTC day: after it means from the next midnight on.
    const end = value.end ?? value.start;
    if (symbol === '>') return this.compare(value.end ? '>=' : '>', end);
    if (symbol === '<=') return this.compare(value.end ? '<' : '<=', end);
    return this.compare(symbol, value.start);
  }

  compare(symbol: string, value: string | number | boolean): Fragment {
    return sql`coalesce(${this.typed()} ${raw(symbol)} ${this.param(value)}, false)`;
  }

  range(from: string, to: string): Fragment {
    return sql`coalesce(${this.typed()} >= ${this.param(from)} AND ${this.typed()} < ${this.param(to)}, false)`;
  }

  between(from: string, to: string): Fragment {
    return sql`coalesce(${this.typed()} >= ${this.param(from)} AND ${this.typed()} <= ${this.param(to)}, false)`;
  }
}

class CoreView extends View {
  constructor(
    private readonly column: string,
    type: FieldType,
  ) {
    super(type);
  }

  present(): Fragment {
    return sql`(c.${raw(this.column)} IS NOT NULL)`;
  }

  protected typed(): Fragment {
    return this.type === 'string' ? sql`c.${raw(this.column)} COLLATE "C"` : sql`c.${raw(this.column)}`;
  }

  protected param(value: string | number | boolean): Fragment {
    if (this.type === 'date') return sql`${value}::timestamptz`;
    if (this.type === 'boolean') return sql`${value}::boolean`;
    return sql`${value}::text`;
  }

  override equals(value: TypedValue): Fragment {
    // Emails are stored trimmed and lowercased: equality on `email` is case-insensitive.
    if (this.column === 'email' && value.type === 'string') return sql`(c.email = ${value.value.trim().toLowerCase()}::text)`;
    return super.equals(value);
  }

  contains(pattern: string): Fragment {
    return this.type === 'string' ? sql`coalesce(c.${raw(this.column)} ILIKE ${pattern}::text, false)` : FALSE;
  }
}

const DATE_ONLY_RE = `'^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`;
const DATE_TIME_RE = `'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$'`;
const DATE_TIME_MS_RE = `'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z$'`;

/**
 * `data.<path>`: values of the key's type compare as that type; a value of another JSON type
 * never matches a comparison. Dates (stored as `YYYY-MM-DD` or `…THH:MM:SS[.sss]Z`, always UTC)
 * compare as instants through one fixed-width ISO text form, so no cast can fail on a bad string.
 */
class DataView extends View {
  private readonly json: Fragment;

  constructor(
    private readonly path: string[],
    type: FieldType,
  ) {
    super(type);
    // `->` for a top-level key: cheaper per row than `#>` with a path array.
    this.json = path.length === 1 ? sql`(c.data -> ${path[0]}::text)` : sql`(c.data #> ${path}::text[])`;
  }

  present(): Fragment {
    return sql`(coalesce(jsonb_typeof(${this.json}), 'null') <> 'null')`;
  }

  protected typed(): Fragment {
    const j = this.json;
    switch (this.type) {
      case 'number':
        return sql`(CASE WHEN jsonb_typeof(${j}) = 'number' THEN (${j})::numeric END)`;
      case 'boolean':
        return sql`(CASE WHEN jsonb_typeof(${j}) = 'boolean' THEN (${j})::boolean END)`;
      case 'string':
        return sql`(CASE WHEN jsonb_typeof(${j}) = 'string' THEN ${j} #>> '{}' END) COLLATE "C"`;
      case 'date': {
        const s = sql`(${j} #>> '{}')`;
        return sql`(CASE WHEN jsonb_typeof(${j}) = 'string' THEN CASE WHEN ${s} ~ ${raw(DATE_ONLY_RE)} THEN ${s} || 'T00:00:00.000Z' WHEN ${s} ~ ${raw(DATE_TIME_RE)} THEN left(${s}, 19) || '.000Z' WHEN ${s} ~ ${raw(DATE_TIME_MS_RE)} THEN ${s} END END) COLLATE "C"`;
      }
    }
  }

  protected param(value: string | number | boolean): Fragment {
    if (this.type === 'number') return sql`${value}::numeric`;
    if (this.type === 'boolean') return sql`${value}::boolean`;
    return sql`${value}::text`;
  }

  override equals(value: TypedValue): Fragment {
    if (value.type === 'date') return super.equals(value);
    // Containment first: it can use the GIN index on `data`; the typed test keeps the meaning exact.
    const doc = this.path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value.value);
    return sql`(c.data @> ${JSON.stringify(doc)}::jsonb AND ${super.equals(value)})`;
  }

  /**
   * Numbers compare through jsonpath in strict mode, which compares JSON numbers only (a string,
   * array, null or missing key is unknown, so no match): the type test and the comparison in one
   * step, scanning about twice as fast as the CASE form. The function form, not `@@`: PostgreSQL
   * estimates the operator at 0.1% of rows and then plans an event filter beside it as a nested
   * loop; the function keeps the default estimate (bench/README.md, "Segments").
   */
  override compare(symbol: string, value: string | number | boolean): Fragment {
    const op = JSONPATH_COMPARISON[symbol];
    if (this.type !== 'number' || typeof value !== 'number' || !op) return super.compare(symbol, value);
    const path = `strict $${this.path.map((key) => `.${JSON.stringify(key)}`).join('')} ${op} $v`;
    return sql`coalesce(jsonb_path_match(c.data, ${path}::jsonpath, ${JSON.stringify({ v: value })}::jsonb, true), false)`;
  }

  contains(pattern: string): Fragment {
    // The pattern first: the type test then runs only for the few rows that match it.
    const text = this.path.length === 1 ? sql`(c.data ->> ${this.path[0]}::text)` : sql`(c.data #>> ${this.path}::text[])`;
    return sql`coalesce(${text} ILIKE ${pattern}::text AND jsonb_typeof(${this.json}) IN ('string', 'number', 'boolean'), false)`;
  }
}

const JSONPATH_COMPARISON: Record<string, string> = { '=': '==', '>': '>', '<': '<', '>=': '>=', '<=': '<=' };
