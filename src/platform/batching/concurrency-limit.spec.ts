import { ConcurrencyLimit } from './concurrency-limit';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('runs at most `limit` tasks at once, the rest in arrival order as slots free up', async () => {
    const limit = new ConcurrencyLimit(2);
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const results = [0, 1, 2, 3].map((i) =>
      limit.run(async () => {
        started.push(i);
        await new Promise<void>((resolve) => (finish[i] = resolve));
        return i * 10;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limit.inFlight).toBe(2);
    finish[1]();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[0]();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    finish[2]();
    finish[3]();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30]);
    expect(limit.inFlight).toBe(0);
  });

  it('frees the slot when a task fails', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit.run(async () => 'next')).toBe('next');
    expect(limit.inFlight).toBe(0);
  });

  it('outside: the slot serves another task while the holder waits, and is taken back in turn', async () => {
    const limit = new ConcurrencyLimit(1);
    const order: string[] = [];
    let answer!: () => void;
    const first = limit.run(async () => {
      order.push('first: own work');
      await limit.outside(() => new Promise<void>((resolve) => (answer = resolve)));
      order.push('first: after the answer');
    });
    await tick();
    const second = limit.run(async () => {
      order.push('second');
      expect(limit.inFlight).toBe(1);
    });
    await second;
    answer();
    await first;
    expect(order).toEqual(['first: own work', 'second', 'first: after the answer']);
    expect(limit.inFlight).toBe(0);
  });

  it('refuses a limit below 1', () => {
    expect(() => new ConcurrencyLimit(0)).toThrow(RangeError);
  });
});
