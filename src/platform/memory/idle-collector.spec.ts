import { collectGarbageIfGrown, startIdleCollector, type IdleCollectorProbe } from './idle-collector';

const MB = 1024 * 1024;

/** A probe whose heap and utilisation the test sets; counts collections (each brings the heap back to `live`). */
function fakeProbe(live: number) {
  const state = { heap: live, utilization: 1, collections: 0 };
  const probe: IdleCollectorProbe = {
    gc: () => {
      state.collections++;
      state.heap = live;
    },
    heapUsed: () => state.heap,
    utilization: () => state.utilization,
  };
  return { state, probe };
}

describe('startIdleCollector', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());
  const options = { intervalMs: 5_000, idleUtilization: 0.05, minGrowthBytes: 48 * MB };

  it('collects once when the process falls idle after the heap grew, and not again while it stays idle', () => {
    const { state, probe } = fakeProbe(60 * MB);
    const stop = startIdleCollector(options, probe);
    state.heap = 300 * MB; // a load's garbage, while busy
    jest.advanceTimersByTime(15_000);
    expect(state.collections).toBe(0);
    state.utilization = 0.01; // the load ends
    jest.advanceTimersByTime(5_000);
    expect(state.collections).toBe(1);
    state.heap += 10 * MB; // idle timers allocate a little
    jest.advanceTimersByTime(60_000);
    expect(state.collections).toBe(1);
    stop();
  });

  it('leaves a busy process alone, and an idle one whose heap has not grown enough', () => {
    const { state, probe } = fakeProbe(60 * MB);
    const stop = startIdleCollector(options, probe);
    state.heap = 100 * MB;
    state.utilization = 0.5;
    jest.advanceTimersByTime(30_000);
    state.utilization = 0;
    state.heap = 60 * MB + 47 * MB;
    jest.advanceTimersByTime(30_000);
    expect(state.collections).toBe(0);
    stop();
  });

  it('does nothing without gc (node started without --expose-gc)', () => {
    const stop = startIdleCollector(options, null);
    expect(() => jest.advanceTimersByTime(60_000)).not.toThrow();
    stop();
  });

  it('stops when asked', () => {
    const { state, probe } = fakeProbe(60 * MB);
    const stop = startIdleCollector(options, probe);
    stop();
    state.heap = 500 * MB;
    state.utilization = 0;
    jest.advanceTimersByTime(60_000);
    expect(state.collections).toBe(0);
  });

  it('collects for a busy job between its units once the heap grew by the threshold since the last collection, idle or not', () => {
    const { state, probe } = fakeProbe(60 * MB);
    const stop = startIdleCollector(options, probe);
    state.utilization = 0.9;
    state.heap = 60 * MB + 47 * MB;
    expect(collectGarbageIfGrown()).toBe(false);
    state.heap = 60 * MB + 48 * MB;
    expect(collectGarbageIfGrown()).toBe(true);
    expect(state.collections).toBe(1);
    expect(collectGarbageIfGrown()).toBe(false);
    // The idle collection counts from the job's collection.
    state.utilization = 0;
    state.heap += 10 * MB;
    jest.advanceTimersByTime(10_000);
    expect(state.collections).toBe(1);
    stop();
    state.heap = 500 * MB;
    expect(collectGarbageIfGrown()).toBe(false);
  });
});
