import { SchedulerRegistry } from '@nestjs/schedule';
import { PeriodicRound } from './periodic-round';
import { TickClock } from './tick-clock';

const clock = () => new TickClock(new SchedulerRegistry(), 'probe');

describe('PeriodicRound', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('runs one round at a time: a call during a round joins it', async () => {
    const gate = deferred();
    const run = jest.fn(() => gate.promise);
    const rounds = new PeriodicRound(clock(), run, () => undefined);
    const first = rounds.runNow();
    const second = rounds.runNow();
    expect(run).toHaveBeenCalledTimes(1);
    gate.resolve();
    await Promise.all([first, second]);
    await rounds.runNow();
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('stop waits for the round under way, and no round starts after it', async () => {
    const gate = deferred();
    let ended = false;
    const run = jest.fn(async () => {
      await gate.promise;
      ended = true;
    });
    const rounds = new PeriodicRound(clock(), run, () => undefined);
    void rounds.runNow();
    const stopped = rounds.stop();
    expect(rounds.stopped).toBe(true);
    gate.resolve();
    await stopped;
    expect(ended).toBe(true);
    await rounds.runNow();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('hands an escaped error to onError and runs again next time', async () => {
    const onError = jest.fn();
    const run = jest.fn().mockRejectedValueOnce(new Error('boom')).mockResolvedValueOnce(undefined);
    const rounds = new PeriodicRound(clock(), run, onError);
    await rounds.runNow();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'boom' }));
    await rounds.runNow();
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('ticks every interval in worker processes only', async () => {
    jest.useFakeTimers();
    try {
      const run = jest.fn(async () => undefined);
      const api = new PeriodicRound(clock(), run, () => undefined);
      api.start({ role: 'api' }, 1_000);
      const worker = new PeriodicRound(clock(), run, () => undefined);
      worker.start({ role: 'worker' }, 1_000);
      await jest.advanceTimersByTimeAsync(3_000);
      expect(run).toHaveBeenCalledTimes(3);
      await Promise.all([api.stop(), worker.stop()]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('with rerunAfterMs, a call during a round asks for one more round after the gap (calls coalesce)', async () => {
    jest.useFakeTimers();
    try {
      const gate = deferred();
      const run = jest.fn().mockImplementationOnce(() => gate.promise).mockResolvedValue(undefined);
      const rounds = new PeriodicRound(clock(), run, () => undefined, { rerunAfterMs: 50 });
      const first = rounds.runNow();
      void rounds.runNow();
      void rounds.runNow();
      gate.resolve();
      await jest.advanceTimersByTimeAsync(49);
      expect(run).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(1);
      await first;
      expect(run).toHaveBeenCalledTimes(2);
      await rounds.runNow();
      expect(run).toHaveBeenCalledTimes(3);
      await rounds.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
