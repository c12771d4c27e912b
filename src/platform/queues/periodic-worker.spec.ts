import { Inject, Injectable } from '@nestjs/common';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import type { AppConfig } from '../../config/config';
import { PeriodicWorker } from './periodic-worker';

const ROLE = 'PROBE_ROLE';
const INTERVAL = 'PROBE_INTERVAL';

@Injectable()
class Probe extends PeriodicWorker {
  rounds_ = 0;
  failNext = false;
  constructor(@Inject(ROLE) role: AppConfig['role'], @Inject(INTERVAL) interval: number | null) {
    super({ role }, 'probe', interval);
  }

  protected async round(): Promise<void> {
    this.rounds_++;
    if (this.failNext) throw new Error('boom');
  }
}

/** The probe in a Nest application with @nestjs/schedule, as the ticks run in the service. */
async function start(role: AppConfig['role'], interval: number | null) {
  const moduleRef = await Test.createTestingModule({
    imports: [ScheduleModule.forRoot()],
    providers: [Probe, { provide: ROLE, useValue: role }, { provide: INTERVAL, useValue: interval }],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return { app, probe: app.get(Probe), registry: app.get(SchedulerRegistry) };
}

describe('PeriodicWorker', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('ticks on worker processes at its interval through the scheduler registry, survives a failing round, stops on close', async () => {
    const { app, probe, registry } = await start('worker', 1_000);
    expect(registry.getIntervals()).toEqual(['tick:probe']);
    probe.failNext = true;
    await jest.advanceTimersByTimeAsync(1_000);
    probe.failNext = false;
    await jest.advanceTimersByTimeAsync(2_000);
    expect(probe.rounds_).toBe(3);
    await app.close();
    expect(registry.getIntervals()).toEqual([]);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(probe.rounds_).toBe(3);
  });

  it('never overlaps its rounds: a tick during a slow round is skipped', async () => {
    const { app, probe } = await start('worker', 1_000);
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const round = jest.spyOn(probe as unknown as { round(): Promise<void> }, 'round').mockImplementationOnce(() => slow);
    await jest.advanceTimersByTimeAsync(3_500);
    expect(round).toHaveBeenCalledTimes(1);
    release();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(round).toHaveBeenCalledTimes(2);
    await app.close();
  });

  it('close waits for the round under way', async () => {
    const { app, probe } = await start('worker', 1_000);
    let release!: () => void;
    let ended = false;
    jest.spyOn(probe as unknown as { round(): Promise<void> }, 'round').mockImplementationOnce(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      ended = true;
    });
    await jest.advanceTimersByTimeAsync(1_000);
    const closed = app.close();
    release();
    await closed;
    expect(ended).toBe(true);
  });

  it('never ticks in an api process, nor when its interval is null (switched off)', async () => {
    const api = await start('api', 1_000);
    const off = await start('all', null);
    expect([api.registry.getIntervals(), off.registry.getIntervals()]).toEqual([[], []]);
    await jest.advanceTimersByTimeAsync(5_000);
    expect([api.probe.rounds_, off.probe.rounds_]).toEqual([0, 0]);
    await off.probe.runNow();
    expect(off.probe.rounds_).toBe(1);
    await Promise.all([api.app.close(), off.app.close()]);
  });
});
