import { Batcher } from './batcher';

describe('Batcher', () => {
  it('runs a lone call at once and groups calls made while a batch is in flight', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>(async (items) => {
      batches.push(items);
      await new Promise((resolve) => setTimeout(resolve, 10));
      return items.map((i) => i * 2);
    }, 3);
    expect(await batcher.run(1)).toBe(2);
    const results = await Promise.all([2, 3, 4, 5, 6].map((i) => batcher.run(i)));
    expect(results).toEqual([4, 6, 8, 10, 12]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('rejects every call of a failed batch', async () => {
    const batcher = new Batcher<number, number>(async () => {
      throw new Error('boom');
    });
    await expect(Promise.all([batcher.run(1), batcher.run(2)])).rejects.toThrow('boom');
    await expect(batcher.run(3)).rejects.toThrow('boom');
  });
});
