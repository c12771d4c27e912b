import type { AppConfig } from '../../config/config';
import { PeriodicWorker } from './periodic-worker';

class Probe extends PeriodicWorker {
  rounds_ = 0;
  failNext = false;
  constructor(
    role: AppConfig['role'],
    interval: number | null,
  ) {
    super({ role }, 'probe', interval);
  }

  protected async round(): Promise<void> {
    this.rounds_++;
    if (this.failNext) throw new Error('boom');
  }
}

describe('PeriodicWorker', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('ticks on worker processes at its interval, survives a failing round, stops on module destroy', async () => {
    const worker = new Probe('worker', 1_000);
    worker.onApplicationBootstrap();
    worker.failNext = true;
    await jest.advanceTimersByTimeAsync(1_000);
    worker.failNext = false;
    await jest.advanceTimersByTimeAsync(2_000);
    expect(worker.rounds_).toBe(3);
    await worker.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(worker.rounds_).toBe(3);
  });

  it('never ticks in an api process, nor when its interval is null (switched off)', async () => {
    const api = new Probe('api', 1_000);
    const off = new Probe('all', null);
    api.onApplicationBootstrap();
    off.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(5_000);
    expect([api.rounds_, off.rounds_]).toEqual([0, 0]);
    await off.runNow();
    expect(off.rounds_).toBe(1);
  });
});
