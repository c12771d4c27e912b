import { MemoryCounterStore } from './memory-counter-store';

describe('MemoryCounterStore', () => {
  const store = new MemoryCounterStore();
  afterAll(() => store.onModuleDestroy());

  it('counts within a window and starts over after it', async () => {
    expect(await store.peek('k')).toBeNull();
    expect((await store.hit('k', 50)).count).toBe(1);
    const second = await store.hit('k', 50);
    expect(second.count).toBe(2);
    expect(second.resetMs).toBeGreaterThan(0);
    expect(second.resetMs).toBeLessThanOrEqual(50);
    expect((await store.peek('k'))?.count).toBe(2);
    await new Promise((r) => setTimeout(r, 60));
    expect(await store.peek('k')).toBeNull();
    expect((await store.hit('k', 50)).count).toBe(1);
  });

  it('clears a key', async () => {
    await store.hit('c', 1000);
    await store.clear('c');
    expect(await store.peek('c')).toBeNull();
  });

  it('takes one hit back, never below zero, and nothing once the window ended', async () => {
    await store.hit('r', 1000);
    await store.hit('r', 1000);
    await store.release('r');
    expect((await store.peek('r'))?.count).toBe(1);
    await store.release('r');
    await store.release('r');
    expect((await store.peek('r'))?.count).toBe(0);
    await store.release('never-hit');
    expect(await store.peek('never-hit')).toBeNull();
  });
});
