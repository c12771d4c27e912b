import { takeBatch, takeBatchByKeys } from '../../contacts/use-cases/upsert-contacts-batch.sql';
import { SendBatcher, SendBatcherOptions } from './send-batcher';

describe('takeBatchByKeys', () => {
  const q = (...keys: string[][]) => keys.map((k, n) => ({ keys: k, n }));

  it('splits single-key entries exactly like takeBatch', () => {
    const singles = ['a', 'b', 'a', 'c', 'b', 'a', 'd'];
    for (const busy of [new Set<string>(), new Set(['c'])]) {
      for (const max of [2, 3, 100]) {
        const multi = takeBatchByKeys(q(...singles.map((k) => [k])), busy, max);
        const single = takeBatch(singles.map((key, n) => ({ key, n })), busy, max);
        expect(multi.batch.map((e) => e.n)).toEqual(single.batch.map((e) => e.n));
        expect(multi.rest.map((e) => e.n)).toEqual(single.rest.map((e) => e.n));
      }
    }
  });

  it('never puts a key twice in a batch, nor a busy key', () => {
    const { batch, rest } = takeBatchByKeys(q(['a', 'b'], ['c'], ['b', 'd'], ['e', 'x'], ['f']), new Set(['x']), 100);
    expect(batch.map((e) => e.n)).toEqual([0, 1, 4]);
    expect(rest.map((e) => e.n)).toEqual([2, 3]);
  });

  it('keeps each key in call order: a waiting entry holds its keys for later entries', () => {
    // Entry 1 waits for "a" (busy); entry 2 shares "b" with it and must not overtake it.
    const { batch, rest } = takeBatchByKeys(q(['c'], ['a', 'b'], ['b'], ['d']), new Set(['a']), 100);
    expect(batch.map((e) => e.n)).toEqual([0, 3]);
    expect(rest.map((e) => e.n)).toEqual([1, 2]);
  });

  it('caps the keys of a batch, but always takes a first entry', () => {
    const big = q(['a', 'b', 'c'], ['d', 'e'], ['f'], ['g', 'h']);
    const { batch, rest } = takeBatchByKeys(big, new Set(), 100, 4);
    expect(batch.map((e) => e.n)).toEqual([0, 2]);
    expect(rest.map((e) => e.n)).toEqual([1, 3]);
    expect(takeBatchByKeys(q(['a', 'b', 'c']), new Set(), 100, 2).batch).toHaveLength(1);
  });
});

interface Item {
  id: number;
  keys: string[];
  fail?: boolean;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

function harness(overrides: Partial<SendBatcherOptions<Item, string>> = {}) {
  const batches: number[][] = [];
  const singles: number[] = [];
  const running = new Set<string>();
  const overlap: string[] = [];
  const hold = async (keys: string[]) => {
    for (const k of keys) if (running.has(k)) overlap.push(k);
    keys.forEach((k) => running.add(k));
    await new Promise((resolve) => setTimeout(resolve, 5));
    keys.forEach((k) => running.delete(k));
  };
  const batcher = new SendBatcher<Item, string>({
    keys: (item) => item.keys,
    runBatch: async (items) => {
      batches.push(items.map((i) => i.id));
      await hold(items.flatMap((i) => i.keys));
      if (items.some((i) => i.fail)) throw Object.assign(new Error('batch failed'), { code: '22P05' });
      return items.map((i) => `batch:${i.id}`);
    },
    runOne: async (item) => {
      singles.push(item.id);
      await hold(item.keys);
      if (item.fail) throw new Error(`item ${item.id} failed`);
      return `one:${item.id}`;
    },
    retryable: (error) => (error as { code?: string }).code === '40P01',
    max: 4,
    ...overrides,
  });
  return { batcher, batches, singles, overlap };
}

describe('SendBatcher', () => {
  it('runs a lone call alone, right away', async () => {
    const { batcher, batches, singles } = harness();
    await expect(batcher.run({ id: 1, keys: ['a'] })).resolves.toBe('one:1');
    expect(batches).toEqual([]);
    expect(singles).toEqual([1]);
  });

  it('collects concurrent calls into batches (at most max each); results go to their callers', async () => {
    const { batcher, batches, overlap } = harness();
    const calls = Array.from({ length: 10 }, (_, id) => batcher.run({ id, keys: [`k${id}`, `m${id}`] }));
    const results = await Promise.all(calls);
    expect(results).toEqual(Array.from({ length: 10 }, (_, id) => (batches.some((b) => b.includes(id)) ? `batch:${id}` : `one:${id}`)));
    expect(batches.every((b) => b.length <= 4)).toBe(true);
    expect(batches.flat().length).toBeGreaterThanOrEqual(8);
    expect(overlap).toEqual([]);
    expect(batcher.stats.batches).toBe(batches.length);
  });

  it('never runs one key twice at a time; calls sharing a key keep their order', async () => {
    const { batcher, batches, singles, overlap } = harness({ max: 50 });
    const order: number[] = [];
    const items: Item[] = Array.from({ length: 12 }, (_, id) => ({ id, keys: id % 3 === 0 ? ['same', `o${id}`] : [`o${id}`, id % 2 ? 'odd' : 'even'] }));
    await Promise.all(items.map((item) => batcher.run(item).then(() => order.push(item.id))));
    expect(overlap).toEqual([]);
    const started = [...batches.flat(), ...singles];
    for (const key of ['same', 'odd', 'even']) {
      const ids = items.filter((i) => i.keys.includes(key)).map((i) => i.id);
      const positions = ids.map((id) => started.indexOf(id));
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    }
  });

  it('runs each item of a failed batch alone: one error for the bad item, results for the others', async () => {
    const { batcher, batches, singles } = harness();
    await tick();
    const first = batcher.run({ id: 0, keys: ['x'] });
    const calls = [1, 2, 3].map((id) => batcher.run({ id, keys: [`k${id}`], fail: id === 2 }));
    const settled = await Promise.allSettled([first, ...calls]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason.message).toBe('item 2 failed');
    expect(batches).toEqual([[0, 1, 2, 3]]);
    expect(singles).toEqual([0, 1, 2, 3]);
    expect(batcher.stats.fallbacks).toBe(1);
  });

  it('retries a batch once on a retryable error before falling back', async () => {
    let attempts = 0;
    const { batcher, singles } = harness({
      runBatch: async (items) => {
        attempts++;
        if (attempts === 1) throw Object.assign(new Error('deadlock'), { code: '40P01' });
        return items.map((i) => `batch:${i.id}`);
      },
    });
    const results = await Promise.all([1, 2, 3].map((id) => batcher.run({ id, keys: [`k${id}`] })));
    expect(results).toEqual(['batch:1', 'batch:2', 'batch:3']);
    expect(attempts).toBe(2);
    expect(singles).toEqual([]);
    expect(batcher.stats.retries).toBe(1);
  });
});
