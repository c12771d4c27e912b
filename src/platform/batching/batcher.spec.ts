import { Batcher, BatcherOptions, takeBatch } from './batcher';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('takeBatch', () => {
  const one = (...keys: string[]) => keys.map((key, n) => ({ keys: [key], key, n }));
  const q = (...keys: string[][]) => keys.map((k, n) => ({ keys: k, n }));

  it('takes each key once, in order; later duplicates wait in order', () => {
    const { batch, rest } = takeBatch(one('a', 'b', 'a', 'c', 'b', 'a'), new Set(), 100);
    expect(batch.map((e) => e.n)).toEqual([0, 1, 3]);
    expect(rest.map((e) => e.n)).toEqual([2, 4, 5]);
    const next = takeBatch(rest, new Set(), 100);
    expect(next.batch.map((e) => e.n)).toEqual([2, 4]);
    expect(next.rest.map((e) => e.n)).toEqual([5]);
  });

  it('leaves keys of running batches for later, and stops at max', () => {
    const { batch, rest } = takeBatch(one('a', 'b', 'c', 'd', 'e'), new Set(['b']), 2);
    expect(batch.map((e) => e.key)).toEqual(['a', 'c']);
    expect(rest.map((e) => e.key)).toEqual(['b', 'd', 'e']);
    expect(takeBatch(one('b', 'b'), new Set(['b']), 10).batch).toEqual([]);
  });

  it('never puts a key twice in a batch, nor a busy key', () => {
    const { batch, rest } = takeBatch(q(['a', 'b'], ['c'], ['b', 'd'], ['e', 'x'], ['f']), new Set(['x']), 100);
    expect(batch.map((e) => e.n)).toEqual([0, 1, 4]);
    expect(rest.map((e) => e.n)).toEqual([2, 3]);
  });

  it('keeps each key in call order: a waiting entry holds its keys for later entries', () => {
    // Entry 1 waits for "a" (busy); entry 2 shares "b" with it and must not overtake it.
    const { batch, rest } = takeBatch(q(['c'], ['a', 'b'], ['b'], ['d']), new Set(['a']), 100);
    expect(batch.map((e) => e.n)).toEqual([0, 3]);
    expect(rest.map((e) => e.n)).toEqual([1, 2]);
  });

  it('caps the keys of a batch, but always takes a first entry', () => {
    const big = q(['a', 'b', 'c'], ['d', 'e'], ['f'], ['g', 'h']);
    const { batch, rest } = takeBatch(big, new Set(), 100, 4);
    expect(batch.map((e) => e.n)).toEqual([0, 2]);
    expect(rest.map((e) => e.n)).toEqual([1, 3]);
    expect(takeBatch(q(['a', 'b', 'c']), new Set(), 100, 2).batch).toHaveLength(1);
  });

  it('takes keyless entries freely up to max', () => {
    const { batch, rest } = takeBatch(q([], [], []), new Set(), 2);
    expect(batch.map((e) => e.n)).toEqual([0, 1]);
    expect(rest.map((e) => e.n)).toEqual([2]);
  });
});

describe('Batcher without a single-item path (shared round trips)', () => {
  it('runs a lone call at once and groups calls made while a batch is in flight', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>({
      runBatch: async (items) => {
        batches.push(items);
        await new Promise((resolve) => setTimeout(resolve, 10));
        return items.map((i) => i * 2);
      },
      max: 3,
    });
    expect(await batcher.run(1)).toBe(2);
    const results = await Promise.all([2, 3, 4, 5, 6].map((i) => batcher.run(i)));
    expect(results).toEqual([4, 6, 8, 10, 12]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('rejects every call of a failed batch', async () => {
    const batcher = new Batcher<number, number>({
      runBatch: async () => {
        throw new Error('boom');
      },
    });
    await expect(Promise.all([batcher.run(1), batcher.run(2)])).rejects.toThrow('boom');
    await expect(batcher.run(3)).rejects.toThrow('boom');
  });
});

describe('Batcher with keys and a single-item path (writes)', () => {
  interface Item {
    id: number;
    keys: string[];
    fail?: boolean;
  }

  function harness(overrides: Partial<BatcherOptions<Item, string>> = {}) {
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
    const batcher = new Batcher<Item, string>({
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
      maxInFlight: 2,
      ...overrides,
    });
    return { batcher, batches, singles, overlap };
  }

  it('runs a lone call alone, right away', async () => {
    const { batcher, batches, singles } = harness();
    await expect(batcher.run({ id: 1, keys: ['a'] })).resolves.toBe('one:1');
    expect(batches).toEqual([]);
    expect(singles).toEqual([1]);
    expect(batcher.stats.single).toBe(1);
  });

  it('runs concurrent calls together and duplicates of a key in a later batch', async () => {
    const { batcher, batches, singles } = harness({ maxInFlight: 1, max: 100 });
    const keys = ['a', 'b', 'a', 'c', 'a'];
    const results = await Promise.all(keys.map((key, id) => batcher.run({ id, keys: [key] })));
    expect(batches).toEqual([[0, 1, 3]]);
    expect(results).toEqual(['batch:0', 'batch:1', 'one:2', 'batch:3', 'one:4']);
    expect(singles).toEqual([2, 4]);
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

  it('never runs one key twice at a time, even with two batches in flight', async () => {
    const { batcher, batches, overlap } = harness({ max: 3 });
    const keys = Array.from({ length: 40 }, (_, n) => 'abcde'[n % 5]);
    const results = await Promise.all(keys.map((key, id) => batcher.run({ id, keys: [key] })));
    expect(overlap).toEqual([]);
    expect(results).toHaveLength(40);
    expect(batches.length).toBeGreaterThan(1);
    expect(batcher.stats.batchedItems + batcher.stats.single).toBe(40);
  });

  it('keeps the call order of calls sharing a key', async () => {
    const { batcher, batches, singles, overlap } = harness({ max: 50 });
    const items: Item[] = Array.from({ length: 12 }, (_, id) => ({ id, keys: id % 3 === 0 ? ['same', `o${id}`] : [`o${id}`, id % 2 ? 'odd' : 'even'] }));
    await Promise.all(items.map((item) => batcher.run(item)));
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
    expect(batcher.stats.retries).toBe(0);
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

  it('falls back after a second retryable failure', async () => {
    let attempts = 0;
    const { batcher, singles } = harness({
      runBatch: async () => {
        attempts++;
        throw Object.assign(new Error('deadlock'), { code: '40P01' });
      },
    });
    const results = await Promise.all([1, 2, 3].map((id) => batcher.run({ id, keys: [`k${id}`] })));
    expect(results).toEqual(['one:1', 'one:2', 'one:3']);
    expect(attempts).toBe(2);
    expect(singles).toEqual([1, 2, 3]);
    expect(batcher.stats.fallbacks).toBe(1);
  });

  it('runs items the batch left out alone', async () => {
    const { batcher, singles } = harness({ runBatch: async (items) => items.map((i) => (i.id === 1 ? undefined : `batch:${i.id}`)) });
    const results = await Promise.all([0, 1, 2].map((id) => batcher.run({ id, keys: [`k${id}`] })));
    expect(results).toEqual(['batch:0', 'one:1', 'batch:2']);
    expect(singles).toEqual([1]);
  });
});
