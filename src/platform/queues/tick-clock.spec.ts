import { SchedulerRegistry } from '@nestjs/schedule';
import { TickClock } from './tick-clock';

describe('TickClock', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('keeps the interval in the scheduler registry under the tick name until stop', async () => {
    const registry = new SchedulerRegistry();
    const clock = new TickClock(registry, 'sweeper');
    const tick = jest.fn();
    clock.every(1_000, tick);
    expect(registry.getIntervals()).toEqual(['tick:sweeper']);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(tick).toHaveBeenCalledTimes(3);
    clock.stop();
    expect(registry.getIntervals()).toEqual([]);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(tick).toHaveBeenCalledTimes(3);
  });

  it('pauses through a registry timeout that is gone once it fires', async () => {
    const registry = new SchedulerRegistry();
    const clock = new TickClock(registry, 'outbox');
    let done = false;
    void clock.pause(50).then(() => (done = true));
    expect(registry.getTimeouts()).toEqual(['tick:outbox:again']);
    await jest.advanceTimersByTimeAsync(49);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(registry.getTimeouts()).toEqual([]);
  });

  it('stop ends a pause at once, also after Nest cleared the timers at shutdown', async () => {
    const registry = new SchedulerRegistry();
    const clock = new TickClock(registry, 'outbox');
    clock.every(1_000, () => undefined);
    const paused = clock.pause(60_000);
    registry.deleteInterval('tick:outbox');
    registry.deleteTimeout('tick:outbox:again');
    clock.stop();
    await paused;
    expect([registry.getIntervals(), registry.getTimeouts()]).toEqual([[], []]);
  });
});
