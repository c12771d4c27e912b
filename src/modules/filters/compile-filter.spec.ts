import { sql } from '../../platform/database/sql-fragment';
import { PGlite } from '@electric-sql/pglite';
import type { FieldType } from '../contacts/data/field-types';
import { CompileContext, compileFilter, compileSingleFilter } from './compile-filter';
import type { Filter, FilterTree } from './filter-tree';
import { SegmentDefinition, validateFilterTree } from './validate-filter';

/**
 * The compiler's output runs on a real (in-memory) PostgreSQL: the semantics under test are SQL's.
 * Contacts: ann..eve with `data` chosen to hit the traps (numbers vs text, missing keys, dates
 * without time, mixed types under one key).
 */
const P = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const NOW = new Date('2026-06-15T12:00:00.000Z');
const STATIC_ID = '00000000-0000-4000-8000-0000000000aa';
const DYNAMIC_ID = '00000000-0000-4000-8000-0000000000bb';

const fieldTypes = new Map<string, FieldType>([
  ['age', 'number'],
  ['plan', 'string'],
  ['vip', 'boolean'],
  ['renewal', 'date'],
  ['profile.tier', 'string'],
  ['profile.score', 'number'],
]);
const segments = new Map<string, SegmentDefinition>([
  [STATIC_ID, { id: STATIC_ID, name: 'Static', type: 'STATIC', condition: null }],
  [DYNAMIC_ID, { id: DYNAMIC_ID, name: 'Adults', type: 'DYNAMIC', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.age', operator: 'gte', value: 18 }] }] } }],
]);
// What segments hands the compiler for a STATIC segment (its storedMemberSql), over the table above.
const storedMembers = (segmentId: string) => sql`EXISTS (SELECT 1 FROM segment_members sm WHERE sm.segment_id = ${segmentId}::uuid AND sm.contact_id = c.id)`;
const ctx: CompileContext = { fieldTypes, segments, storedMembers, now: NOW };

let db: PGlite;

beforeAll(async () => {
  db = new PGlite();
  await db.exec(`
    CREATE TABLE contacts (id text PRIMARY KEY, project_id uuid NOT NULL, email text NOT NULL, subscribed boolean NOT NULL, data jsonb NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL);
    CREATE TABLE events (project_id uuid, contact_id text, name text, created_at timestamptz);
    CREATE TABLE emails (project_id uuid, contact_id text, sent_at timestamptz, delivered_at timestamptz, opened_at timestamptz, clicked_at timestamptz, bounced_at timestamptz, complained_at timestamptz);
    CREATE TABLE segment_members (segment_id uuid, contact_id text);
    INSERT INTO contacts VALUES
      ('ann', '${P}', 'ann@example.com', true,  '{"age": 9,  "plan": "pro",   "vip": true,  "renewal": "2026-06-10", "profile": {"tier": "gold", "score": 10}}', '2026-06-15T10:00:00Z', '2026-06-15T10:00:00Z'),
      ('bob', '${P}', 'bob@example.com', true,  '{"age": 10, "plan": "Basic", "vip": false, "renewal": "2026-06-10T08:30:00Z", "profile": {"tier": "silver"}}', '2026-06-01T00:00:00Z', '2026-06-14T00:00:00Z'),
      ('cat', '${P}', 'cat@example.com', false, '{"age": "abc", "plan": 10, "renewal": "not a date", "profile": "flat"}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
      ('dan', '${P}', 'dan@example.com', true,  '{"age": 25.5, "renewal": "2026-02-30"}', '2025-06-15T12:00:00Z', '2025-06-15T12:00:00Z'),
      ('eve', '${P}', 'eve@example.com', true,  '{}', '2026-06-15T11:59:00Z', '2026-06-15T11:59:00Z'),
      ('zed', '${OTHER}', 'zed@example.com', true, '{"age": 9}', '2026-06-15T10:00:00Z', '2026-06-15T10:00:00Z');
    INSERT INTO events VALUES
      ('${P}', 'ann', 'purchase', '2026-06-14T12:00:00Z'),
      ('${P}', 'bob', 'purchase', '2026-04-01T12:00:00Z'),
      ('${P}', 'cat', 'signup',   '2026-06-15T11:00:00Z'),
      ('${OTHER}', 'dan', 'purchase', '2026-06-15T11:00:00Z');
    INSERT INTO emails VALUES
      ('${P}', 'ann', '2026-06-14T00:00:00Z', '2026-06-14T00:01:00Z', '2026-06-14T01:00:00Z', NULL, NULL, NULL),
      ('${P}', 'bob', '2026-05-01T00:00:00Z', NULL, NULL, NULL, '2026-05-01T00:01:00Z', NULL),
      ('${P}', 'cat', '2026-06-15T00:00:00Z', '2026-06-15T00:01:00Z', '2026-06-15T00:02:00Z', '2026-06-15T00:03:00Z', NULL, '2026-06-15T00:04:00Z');
    INSERT INTO segment_members VALUES ('${STATIC_ID}', 'bob'), ('${STATIC_ID}', 'eve');
  `);
});
afterAll(() => db?.close());

async function matching(tree: FilterTree): Promise<string[]> {
  expect(validateFilterTree(tree, 'condition', { fieldTypes, segments })).toEqual([]);
  const where = compileFilter(P, tree, ctx);
  const { text, values } = where.toQuery(1);
  const res = await db.query<{ id: string }>(`SELECT c.id FROM contacts c WHERE c.project_id = $1 AND (${text}) ORDER BY c.id`, [P, ...values]);
  return res.rows.map((r) => r.id);
}
const one = (filter: Filter) => matching({ logic: 'AND', groups: [{ filters: [filter] }] });

describe('compileFilter on data.<key> by inferred type', () => {
  it('compares numbers numerically ("9" < "10" is the trap)', async () => {
    expect(await one({ field: 'data.age', operator: 'lessThan', value: 10 })).toEqual(['ann']);
    expect(await one({ field: 'data.age', operator: 'lt', value: 10 })).toEqual(['ann']);
    expect(await one({ field: 'data.age', operator: 'greaterThan', value: 9 })).toEqual(['bob', 'dan']);
    expect(await one({ field: 'data.age', operator: 'gte', value: 10 })).toEqual(['bob', 'dan']);
    expect(await one({ field: 'data.age', operator: 'lte', value: '10' })).toEqual(['ann', 'bob']);
    expect(await one({ field: 'data.age', operator: 'equals', value: 25.5 })).toEqual(['dan']);
  });

  it('never matches a missing key with a comparison, notEquals and notContains included', async () => {
    expect(await one({ field: 'data.age', operator: 'notEquals', value: 9 })).toEqual(['bob', 'cat', 'dan']);
    expect(await one({ field: 'data.plan', operator: 'notContains', value: 'pro' })).toEqual(['bob', 'cat']);
    expect(await one({ field: 'data.age', operator: 'notExists' })).toEqual(['eve']);
    expect(await one({ field: 'data.age', operator: 'exists' })).toEqual(['ann', 'bob', 'cat', 'dan']);
    expect(await one({ field: 'data.nothing', operator: 'notEquals', value: 'x' })).toEqual([]);
    expect(await one({ field: 'data.nothing', operator: 'notExists' })).toEqual(['ann', 'bob', 'cat', 'dan', 'eve']);
  });

  it('compares strings exactly, contains case-insensitively, orders them as text', async () => {
    expect(await one({ field: 'data.plan', operator: 'equals', value: 'pro' })).toEqual(['ann']);
    expect(await one({ field: 'data.plan', operator: 'equals', value: 'PRO' })).toEqual([]);
    expect(await one({ field: 'data.plan', operator: 'contains', value: 'BAS' })).toEqual(['bob']);
    expect(await one({ field: 'data.plan', operator: 'contains', value: '1' })).toEqual(['cat']);
    expect(await one({ field: 'data.plan', operator: 'greaterThan', value: 'C' })).toEqual(['ann']);
    expect(await one({ field: 'data.plan', operator: 'contains', value: '%' })).toEqual([]);
  });

  it('treats values of another JSON type under a key (mixed types) as non-matching, without errors', async () => {
    // cat has age "abc" (number key) and plan 10 (string key).
    expect(await one({ field: 'data.age', operator: 'greaterThan', value: 0 })).toEqual(['ann', 'bob', 'dan']);
    expect(await one({ field: 'data.plan', operator: 'equals', value: '10' })).toEqual([]);
    expect(await one({ field: 'data.profile.tier', operator: 'equals', value: 'gold' })).toEqual(['ann']);
    expect(await one({ field: 'data.profile.score', operator: 'gt', value: 5 })).toEqual(['ann']);
    expect(await one({ field: 'data.profile.tier', operator: 'exists' })).toEqual(['ann', 'bob']);
  });

  it('compares numbers only with JSON numbers: not arrays, null, strings or objects, whatever the key is called', async () => {
    const Q = '00000000-0000-4000-8000-000000000003';
    await db.exec(`
      INSERT INTO contacts VALUES
        ('q1', '${Q}', 'q1@example.com', true, '{"n": 30, "we\\"ird key": 5, "deep": {"x y": 2}}', now(), now()),
        ('q2', '${Q}', 'q2@example.com', true, '{"n": [30], "we\\"ird key": "5", "deep": {"x y": null}}', now(), now()),
        ('q3', '${Q}', 'q3@example.com', true, '{"n": null, "deep": 2}', now(), now()),
        ('q4', '${Q}', 'q4@example.com', true, '{"n": {"v": 30}}', now(), now())`);
    const types = new Map<string, FieldType>([
      ['n', 'number'],
      ['we"ird key', 'number'],
      ['deep.x y', 'number'],
    ]);
    const ids = async (filter: Filter) => {
      const { text, values } = compileSingleFilter(Q, filter, { ...ctx, fieldTypes: types }).toQuery(1);
      const res = await db.query<{ id: string }>(`SELECT c.id FROM contacts c WHERE c.project_id = $1 AND (${text}) ORDER BY c.id`, [Q, ...values]);
      return res.rows.map((r) => r.id);
    };
    expect(await ids({ field: 'data.n', operator: 'gt', value: 1 })).toEqual(['q1']);
    expect(await ids({ field: 'data.n', operator: 'equals', value: 30 })).toEqual(['q1']);
    // notEquals: any present non-null value that is not that number (as for `age: "abc"` above).
    expect(await ids({ field: 'data.n', operator: 'notEquals', value: 30 })).toEqual(['q2', 'q4']);
    expect(await ids({ field: 'data.we"ird key', operator: 'lte', value: 5 })).toEqual(['q1']);
    expect(await ids({ field: 'data.deep.x y', operator: 'gte', value: 2 })).toEqual(['q1']);
    expect(await ids({ field: 'data.n', operator: 'lt', value: 1e21 })).toEqual(['q1']);
  });

  it('compares booleans as booleans', async () => {
    expect(await one({ field: 'data.vip', operator: 'equals', value: true })).toEqual(['ann']);
    expect(await one({ field: 'data.vip', operator: 'equals', value: 'false' })).toEqual(['bob']);
    expect(await one({ field: 'data.vip', operator: 'notEquals', value: true })).toEqual(['bob']);
  });

  it('compares dates as instants; a date without time is its whole UTC day', async () => {
    expect(await one({ field: 'data.renewal', operator: 'equals', value: '2026-06-10' })).toEqual(['ann', 'bob']);
    expect(await one({ field: 'data.renewal', operator: 'equals', value: '2026-06-10T08:30:00.000Z' })).toEqual(['bob']);
    expect(await one({ field: 'data.renewal', operator: 'equals', value: '2026-06-10T00:00:00Z' })).toEqual(['ann']);
    expect(await one({ field: 'data.renewal', operator: 'greaterThan', value: '2026-06-10T00:00:00Z' })).toEqual(['bob']);
    expect(await one({ field: 'data.renewal', operator: 'greaterThan', value: '2026-06-09' })).toEqual(['ann', 'bob']);
    expect(await one({ field: 'data.renewal', operator: 'greaterThan', value: '2026-06-10' })).toEqual([]);
    expect(await one({ field: 'data.renewal', operator: 'lessThanOrEqual', value: '2026-06-10' })).toEqual(['ann', 'bob', 'dan']);
    expect(await one({ field: 'data.renewal', operator: 'lessThan', value: '2026-06-10' })).toEqual(['dan']);
    expect(await one({ field: 'data.renewal', operator: 'within', value: 7, unit: 'days' })).toEqual(['ann', 'bob']);
    expect(await one({ field: 'data.renewal', operator: 'within', value: 5, unit: 'days' })).toEqual([]);
    expect(await one({ field: 'data.renewal', operator: 'olderThan', value: 5, unit: 'days' })).toEqual(['ann', 'bob', 'dan']);
    expect(await one({ field: 'data.renewal', operator: 'notEquals', value: '2026-06-10' })).toEqual(['cat', 'dan']);
  });
});

describe('compileFilter on core fields', () => {
  it('email: equals and contains are case-insensitive', async () => {
    expect(await one({ field: 'email', operator: 'equals', value: ' ANN@Example.com ' })).toEqual(['ann']);
    expect(await one({ field: 'email', operator: 'notEquals', value: 'ann@example.com' })).toEqual(['bob', 'cat', 'dan', 'eve']);
    expect(await one({ field: 'email', operator: 'contains', value: 'B@EX' })).toEqual(['bob']);
    expect(await one({ field: 'email', operator: 'notContains', value: 'NN' })).toEqual(['bob', 'cat', 'dan', 'eve']);
    expect(await one({ field: 'email', operator: 'lessThan', value: 'c' })).toEqual(['ann', 'bob']);
    expect(await one({ field: 'email', operator: 'exists' })).toHaveLength(5);
    expect(await one({ field: 'email', operator: 'notExists' })).toEqual([]);
  });

  it('subscribed, createdAt and updatedAt', async () => {
    expect(await one({ field: 'subscribed', operator: 'equals', value: false })).toEqual(['cat']);
    expect(await one({ field: 'subscribed', operator: 'notEquals', value: false })).toEqual(['ann', 'bob', 'dan', 'eve']);
    expect(await one({ field: 'createdAt', operator: 'within', value: 1, unit: 'hours' })).toEqual(['eve']);
    expect(await one({ field: 'createdAt', operator: 'within', value: 3, unit: 'hours' })).toEqual(['ann', 'eve']);
    expect(await one({ field: 'createdAt', operator: 'olderThan', value: 52, unit: 'weeks' })).toEqual(['dan']);
    expect(await one({ field: 'createdAt', operator: 'within', value: 30, unit: 'minutes' })).toEqual(['eve']);
    expect(await one({ field: 'createdAt', operator: 'equals', value: '2026-06-15' })).toEqual(['ann', 'eve']);
    expect(await one({ field: 'createdAt', operator: 'greaterThan', value: '2026-06-01' })).toEqual(['ann', 'eve']);
    expect(await one({ field: 'updatedAt', operator: 'gte', value: '2026-06-14T00:00:00Z' })).toEqual(['ann', 'bob', 'eve']);
  });
});

describe('compileFilter on events, emails and segments', () => {
  it('event operators, scoped to the project', async () => {
    expect(await one({ field: 'event.purchase', operator: 'triggered' })).toEqual(['ann', 'bob']);
    expect(await one({ field: 'event.purchase', operator: 'triggeredWithin', value: 30, unit: 'days' })).toEqual(['ann']);
    expect(await one({ field: 'event.purchase', operator: 'triggeredOlderThan', value: 30, unit: 'days' })).toEqual(['bob']);
    expect(await one({ field: 'event.purchase', operator: 'notTriggered' })).toEqual(['cat', 'dan', 'eve']);
    expect(await one({ field: 'event.purchase', operator: 'notTriggeredWithin', value: 2, unit: 'weeks' })).toEqual(['bob', 'cat', 'dan', 'eve']);
  });

  it('email activity operators', async () => {
    expect(await one({ field: 'email.sent', operator: 'triggered' })).toEqual(['ann', 'bob', 'cat']);
    expect(await one({ field: 'email.delivered', operator: 'triggeredWithin', value: 2, unit: 'days' })).toEqual(['ann', 'cat']);
    expect(await one({ field: 'email.opened', operator: 'notTriggered' })).toEqual(['bob', 'dan', 'eve']);
    expect(await one({ field: 'email.clicked', operator: 'triggered' })).toEqual(['cat']);
    expect(await one({ field: 'email.bounced', operator: 'triggeredOlderThan', value: 1, unit: 'weeks' })).toEqual(['bob']);
    expect(await one({ field: 'email.complained', operator: 'notTriggeredWithin', value: 1, unit: 'hours' })).toEqual(['ann', 'bob', 'cat', 'dan', 'eve']);
  });

  it('segment membership: static members, dynamic conditions inlined', async () => {
    expect(await one({ field: `segment.${STATIC_ID}`, operator: 'memberOfSegment' })).toEqual(['bob', 'eve']);
    expect(await one({ field: `segment.${STATIC_ID}`, operator: 'notMemberOfSegment' })).toEqual(['ann', 'cat', 'dan']);
    expect(await one({ field: `segment.${DYNAMIC_ID}`, operator: 'memberOfSegment' })).toEqual(['dan']);
    expect(await one({ field: `segment.${DYNAMIC_ID}`, operator: 'notMemberOfSegment' })).toEqual(['ann', 'bob', 'cat', 'eve']);
  });

  it('AND/OR between groups and nested conditions', async () => {
    expect(
      await matching({
        logic: 'OR',
        groups: [
          { filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] },
          { filters: [{ field: 'subscribed', operator: 'equals', value: false }] },
        ],
      }),
    ).toEqual(['ann', 'cat']);
    expect(
      await matching({
        logic: 'AND',
        groups: [
          {
            filters: [{ field: 'subscribed', operator: 'equals', value: true }],
            conditions: {
              logic: 'OR',
              groups: [{ filters: [{ field: 'event.purchase', operator: 'triggered' }] }, { filters: [{ field: 'data.age', operator: 'gt', value: 20 }] }],
            },
          },
        ],
      }),
    ).toEqual(['ann', 'bob', 'dan']);
    expect(await matching({ logic: 'AND', groups: [] })).toEqual(['ann', 'bob', 'cat', 'dan', 'eve']);
  });

  it('compiles a single filter for a one-contact test', async () => {
    const f = compileSingleFilter(P, { field: 'data.age', operator: 'lt', value: 10 }, ctx);
    const { text, values } = f.toQuery(1);
    const res = await db.query<{ ok: boolean }>(`SELECT ${text} AS ok FROM contacts c WHERE c.id = $1`, ['ann', ...values]);
    expect(res.rows[0].ok).toBe(true);
  });
});

describe('validateFilterTree', () => {
  const lookup = { fieldTypes, segments, selfId: '00000000-0000-4000-8000-0000000000cc' };
  const codes = (tree: unknown, withLookup = true) => validateFilterTree(tree, 'condition', withLookup ? lookup : undefined).map((e) => `${e.field}:${e.code}`);
  const single = (filter: Record<string, unknown>) => codes({ logic: 'AND', groups: [{ filters: [filter] }] });

  it('names the bad field, operator, unit and value', () => {
    expect(single({ field: 'nope', operator: 'equals', value: 1 })).toEqual(['condition.groups[0].filters[0].field:unknown_field']);
    expect(single({ field: 'email.sent', operator: 'equals', value: 1 })).toEqual(['condition.groups[0].filters[0].operator:invalid_operator']);
    expect(single({ field: 'email.read', operator: 'triggered' })).toEqual(['condition.groups[0].filters[0].field:unknown_field']);
    expect(single({ field: 'data.age', operator: 'bigger', value: 1 })).toEqual(['condition.groups[0].filters[0].operator:unknown_operator']);
    expect(single({ field: 'data.age', operator: 'equals' })).toEqual(['condition.groups[0].filters[0].value:required']);
    expect(single({ field: 'createdAt', operator: 'within', value: 3 })).toEqual(['condition.groups[0].filters[0].unit:required']);
    expect(single({ field: 'createdAt', operator: 'within', value: 3, unit: 'years' })).toEqual(['condition.groups[0].filters[0].unit:invalid_enum']);
    expect(single({ field: 'createdAt', operator: 'within', value: '3', unit: 'days' })).toEqual(['condition.groups[0].filters[0].value:invalid_type']);
    expect(single({ field: 'data.age', operator: 'gt', value: 'old' })).toEqual(['condition.groups[0].filters[0].value:invalid_type']);
    expect(single({ field: 'data.vip', operator: 'gt', value: true })).toEqual(['condition.groups[0].filters[0].operator:invalid_operator']);
    expect(single({ field: 'data.plan', operator: 'within', value: 3, unit: 'days' })).toEqual(['condition.groups[0].filters[0].operator:invalid_operator']);
    expect(single({ field: 'data.renewal', operator: 'equals', value: '2026-02-30' })).toEqual(['condition.groups[0].filters[0].value:invalid_type']);
    expect(single({ field: 'subscribed', operator: 'contains', value: 'x' })).toEqual(['condition.groups[0].filters[0].operator:invalid_operator']);
    expect(single({ field: 'data.age', operator: 'equals', value: { a: 1 } })).toEqual(['condition.groups[0].filters[0].value:invalid_type']);
    expect(single({ field: 'event.purchase', operator: 'triggeredWithin', value: 2 })).toEqual(['condition.groups[0].filters[0].unit:required']);
  });

  it('refuses unknown segments and cycles', () => {
    expect(single({ field: 'segment.00000000-0000-4000-8000-0000000000ff', operator: 'memberOfSegment' })).toEqual(['condition.groups[0].filters[0].field:unknown_segment']);
    expect(single({ field: `segment.${lookup.selfId}`, operator: 'memberOfSegment' })).toEqual(['condition.groups[0].filters[0].field:segment_cycle']);
    const loop = new Map(segments);
    loop.set('00000000-0000-4000-8000-0000000000dd', {
      id: '00000000-0000-4000-8000-0000000000dd',
      name: 'Loop',
      type: 'DYNAMIC',
      condition: { logic: 'AND', groups: [{ filters: [{ field: `segment.${lookup.selfId}`, operator: 'notMemberOfSegment' }] }] },
    });
    const errors = validateFilterTree(
      { logic: 'AND', groups: [{ filters: [{ field: 'segment.00000000-0000-4000-8000-0000000000dd', operator: 'memberOfSegment' }] }] },
      'condition',
      { ...lookup, segments: loop },
    );
    expect(errors.map((e) => e.code)).toEqual(['segment_cycle']);
  });

  it('refuses bad shapes, deep trees and large trees', () => {
    expect(codes('x')).toEqual(['condition:invalid_type']);
    expect(codes({ logic: 'XOR', groups: [] })).toEqual(['condition.logic:invalid_enum']);
    expect(codes({ logic: 'AND', groups: [{}] })).toEqual(['condition.groups[0]:empty_group']);
    let deep: Record<string, unknown> = { logic: 'AND', groups: [{ filters: [{ field: 'email', operator: 'exists' }] }] };
    for (let i = 0; i < 10; i++) deep = { logic: 'AND', groups: [{ conditions: deep }] };
    expect(codes(deep)).toEqual([expect.stringMatching(/:too_deep$/)]);
    for (let i = 0; i < 990; i++) deep = { logic: 'AND', groups: [{ conditions: deep }] };
    expect(codes(deep)).toEqual(['condition:too_large']);
    const big = { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'x'.repeat(100_000) }] }] };
    expect(codes(big)).toEqual(['condition:too_large']);
    const many = { logic: 'AND', groups: [{ filters: Array.from({ length: 201 }, () => ({ field: 'email', operator: 'exists' })) }] };
    expect(codes(many)).toEqual(['condition:too_many_filters']);
  });
});

/** Problems of shape come first: a tree of the declared shape is then checked against the project. */
describe('validateFilterTree in two passes', () => {
  it('names unknown properties at every level', () => {
    const filter = { field: 'email', operator: 'exists', extra: 1 };
    const tree = { logic: 'AND', groups: [{ filters: [filter], conditions: { groups: [{ filters: [{ field: 'email', operator: 'exists' }] }] }, extra: 1 }], extra: 1 };
    expect(validateFilterTree(tree, 'condition').map((e) => `${e.field}:${e.code}`)).toEqual([
      'condition.groups[0].filters[0].extra:unknown_property',
      'condition.groups[0].extra:unknown_property',
      'condition.extra:unknown_property',
    ]);
  });

  it('checks data keys, segments and topics only with the project, and only a tree of the declared shape', () => {
    const tree = (...filters: Array<Record<string, unknown>>) => ({ logic: 'AND', groups: [{ filters }] });
    const typed = tree({ field: 'data.age', operator: 'gt', value: 'old' }, { field: 'topics.none', operator: 'equals', value: true });
    expect(validateFilterTree(typed, 'audienceCondition')).toEqual([]);
    expect(validateFilterTree(typed, 'audienceCondition', { fieldTypes, segments, topics: new Map() })).toEqual([
      { field: 'audienceCondition.groups[0].filters[0].value', code: 'invalid_type', message: 'must be a number: data.age compares as number', received: 'old' },
      { field: 'audienceCondition.groups[0].filters[1].field', code: 'unknown_topic', message: 'no topic with the slug "none" in this project', received: 'topics.none' },
    ]);
    const both = tree({ field: 'data.age', operator: 'gt', value: 'old' }, { field: 'email', operator: 'nope' });
    expect(validateFilterTree(both, 'condition', { fieldTypes, segments }).map((e) => `${e.field}:${e.code}`)).toEqual(['condition.groups[0].filters[1].operator:unknown_operator']);
  });
});
