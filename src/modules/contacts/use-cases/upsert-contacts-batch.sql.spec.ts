import type { UpsertStatementInput } from './upsert-contact.sql';
import { UpsertBatcher } from './upsert-batcher';
import { buildUpsertBatchParams, rowsByItem, takeBatch, upsertKey } from './upsert-contacts-batch.sql';

const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';

const item = (projectId: string, email: string, extra: Partial<UpsertStatementInput> = {}): UpsertStatementInput => ({
  projectId,
  email,
  subscribed: null,
  defaultSubscribed: true,
  set: {},
  unset: [],
  flipData: { source: 'track' },
  fieldTypes: [],
  ...extra,
});

describe('takeBatch', () => {
  const q = (...keys: string[]) => keys.map((key, n) => ({ key, n }));

  it('takes each key once, in order; later duplicates wait in order', () => {
    const { batch, rest } = takeBatch(q('a', 'b', 'a', 'c', 'b', 'a'), new Set(), 100);
    expect(batch.map((e) => e.n)).toEqual([0, 1, 3]);
    expect(rest.map((e) => e.n)).toEqual([2, 4, 5]);
    const next = takeBatch(rest, new Set(), 100);
    expect(next.batch.map((e) => e.n)).toEqual([2, 4]);
    expect(next.rest.map((e) => e.n)).toEqual([5]);
  });

  it('leaves keys of running batches for later, and stops at max', () => {
    const { batch, rest } = takeBatch(q('a', 'b', 'c', 'd', 'e'), new Set(['b']), 2);
    expect(batch.map((e) => e.key)).toEqual(['a', 'c']);
    expect(rest.map((e) => e.key)).toEqual(['b', 'd', 'e']);
    expect(takeBatch(q('b', 'b'), new Set(['b']), 10).batch).toEqual([]);
  });
});

describe('batch statement parameters', () => {
  it('encodes items as one JSON array, field types first-wins per project and key', () => {
    const [items, fields] = buildUpsertBatchParams([
      item(P1, 'a@example.com', { subscribed: false, set: { plan: 'pro' }, unset: ['old'], fieldTypes: [['plan', 'string']], event: { name: 'buy', data: { plan: 'pro', once: 1 } } }),
      item(P1, 'b@example.com', { set: { plan: 5 }, fieldTypes: [['plan', 'number'], ['n', 'number']] }),
      item(P2, 'a@example.com', { defaultSubscribed: false, fieldTypes: [['plan', 'boolean']] }),
    ]);
    expect(JSON.parse(items)).toEqual([
      { i: 0, p: P1, e: 'a@example.com', s: false, d: true, sv: { plan: 'pro' }, un: ['old'], fd: { source: 'track' }, en: 'buy', ed: { plan: 'pro', once: 1 } },
      { i: 1, p: P1, e: 'b@example.com', s: null, d: true, sv: { plan: 5 }, un: [], fd: { source: 'track' }, en: null, ed: null },
      { i: 2, p: P2, e: 'a@example.com', s: null, d: false, sv: {}, un: [], fd: { source: 'track' }, en: null, ed: null },
    ]);
    expect(JSON.parse(fields)).toEqual([
      { p: P1, k: 'plan', t: 'string' },
      { p: P1, k: 'n', t: 'number' },
      { p: P2, k: 'plan', t: 'boolean' },
    ]);
  });

  it('maps rows back to items by index (missing ones undefined) and keys by project and email', () => {
    expect(rowsByItem([{ i: 2, id: 'c' }, { i: 0, id: 'a' }], 3)).toEqual([{ id: 'a' }, undefined, { id: 'c' }]);
    expect(upsertKey(item(P1, 'a@example.com'))).not.toBe(upsertKey(item(P2, 'a@example.com')));
  });
});

describe('UpsertBatcher', () => {
  type Item = { key: string; n: number; fail?: boolean };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  function setup(overrides: { runBatch?: (items: Item[]) => Promise<Array<string | undefined>>; maxInFlight?: number; max?: number } = {}) {
    const log: string[] = [];
    const batches: number[][] = [];
    const batcher = new UpsertBatcher<Item, string>({
      key: (i) => i.key,
      runBatch:
        overrides.runBatch ??
        (async (items) => {
          batches.push(items.map((i) => i.n));
          await tick();
          return items.map((i) => `batch:${i.n}`);
        }),
      runOne: async (i) => {
        log.push(`one:${i.n}`);
        await tick();
        if (i.fail) throw new Error(`fail:${i.n}`);
        return `one:${i.n}`;
      },
      retryable: (e) => (e as { code?: string }).code === '40P01',
      max: overrides.max,
      maxInFlight: overrides.maxInFlight,
    });
    return { batcher, log, batches };
  }

  it('runs a lone call alone, concurrent calls together, duplicates of a key in a later batch', async () => {
    const { batcher, log, batches } = setup({ maxInFlight: 1 });
    expect(await batcher.run({ key: 'a', n: 0 })).toBe('one:0');
    expect(log).toEqual(['one:0']);
    const keys = ['a', 'b', 'a', 'c', 'a'];
    const results = await Promise.all(keys.map((key, n) => batcher.run({ key, n: n + 1 })));
    expect(batches).toEqual([[1, 2, 4]]);
    expect(results).toEqual(['batch:1', 'batch:2', 'one:3', 'batch:4', 'one:5']);
    expect(log).toEqual(['one:0', 'one:3', 'one:5']);
  });

  it('never runs two batches of one key at once, even with two in flight', async () => {
    let running = new Set<string>();
    let overlap = false;
    const batches: string[][] = [];
    const { batcher } = setup({
      maxInFlight: 2,
      max: 3,
      runBatch: async (items) => {
        for (const i of items) if (running.has(i.key)) overlap = true;
        running = new Set([...running, ...items.map((i) => i.key)]);
        batches.push(items.map((i) => i.key));
        await tick();
        await tick();
        for (const i of items) running.delete(i.key);
        return items.map((i) => `batch:${i.n}`);
      },
    });
    const keys = Array.from({ length: 40 }, (_, n) => 'abcde'[n % 5]);
    const results = await Promise.all(keys.map((key, n) => batcher.run({ key, n })));
    expect(overlap).toBe(false);
    expect(results).toHaveLength(40);
    expect(batches.length).toBeGreaterThan(1);
    expect(batcher.stats.batchedItems + batcher.stats.single).toBe(40);
  });

  it('retries a deadlocked batch once, then runs each item alone with its own result or error', async () => {
    let calls = 0;
    const { batcher, log } = setup({
      runBatch: async () => {
        calls++;
        throw Object.assign(new Error('deadlock'), { code: '40P01' });
      },
    });
    const results = await Promise.allSettled([batcher.run({ key: 'a', n: 0 }), batcher.run({ key: 'b', n: 1, fail: true }), batcher.run({ key: 'c', n: 2 })]);
    expect(calls).toBe(2);
    expect(log).toEqual(['one:0', 'one:1', 'one:2']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['one:0', 'fail:1', 'one:2']);
    expect(batcher.stats.fallbacks).toBe(1);
  });

  it('does not retry other errors, and runs items the batch left out alone', async () => {
    let calls = 0;
    const failing = setup({
      runBatch: async () => {
        calls++;
        throw Object.assign(new Error('bad'), { code: '22P05' });
      },
    });
    await Promise.all([failing.batcher.run({ key: 'a', n: 0 }), failing.batcher.run({ key: 'b', n: 1 })]);
    expect(calls).toBe(1);
    const partial = setup({ runBatch: async (items) => items.map((i) => (i.n === 1 ? undefined : `batch:${i.n}`)) });
    const results = await Promise.all([0, 1, 2].map((n) => partial.batcher.run({ key: `k${n}`, n })));
    expect(results).toEqual(['batch:0', 'one:1', 'batch:2']);
  });
});
