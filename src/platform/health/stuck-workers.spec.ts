import type { WorkersService } from '../queues/workers.service';
import { ReadinessRegistry } from './readiness.registry';
import { STUCK_WORKERS_MS, StuckWorkersWatch } from './stuck-workers';

describe('StuckWorkersWatch (liveness)', () => {
  let unable: string[];
  let backendUp: boolean;
  let probes: number;
  let watch: StuckWorkersWatch;

  beforeEach(() => {
    unable = [];
    backendUp = true;
    probes = 0;
    const readiness = new ReadinessRegistry();
    readiness.register('queue', async () => {
      probes++;
      if (!backendUp) throw new Error('connection refused');
    });
    const workers = { runsWorkers: true, unableWorkers: async () => unable } as unknown as WorkersService;
    watch = new StuckWorkersWatch(workers, readiness);
  });

  it('is alive, and asks nothing of the backend, while every worker can work', async () => {
    expect(await watch.stuck(0)).toEqual([]);
    expect(await watch.stuck(10 * STUCK_WORKERS_MS)).toEqual([]);
    expect(probes).toBe(0);
  });

  it('names the workers unable to work for the whole period while the backend answered', async () => {
    unable = ['send-email'];
    expect(await watch.stuck(1_000)).toEqual([]);
    expect(await watch.stuck(1_000 + STUCK_WORKERS_MS - 1)).toEqual([]);
    expect(await watch.stuck(1_000 + STUCK_WORKERS_MS)).toEqual(['send-email']);
  });

  it('stays alive while the backend does not answer (a restart would not help), and counts again from its return', async () => {
    unable = ['send-email'];
    backendUp = false;
    expect(await watch.stuck(0)).toEqual([]);
    expect(await watch.stuck(5 * STUCK_WORKERS_MS)).toEqual([]);
    backendUp = true;
    expect(await watch.stuck(5 * STUCK_WORKERS_MS + 1_000)).toEqual([]);
    expect(await watch.stuck(6 * STUCK_WORKERS_MS + 999)).toEqual([]);
    expect(await watch.stuck(6 * STUCK_WORKERS_MS + 1_000)).toEqual(['send-email']);
  });

  it('starts over when the workers recover', async () => {
    unable = ['events'];
    await watch.stuck(0);
    unable = [];
    expect(await watch.stuck(STUCK_WORKERS_MS / 2)).toEqual([]);
    unable = ['events'];
    expect(await watch.stuck(STUCK_WORKERS_MS)).toEqual([]);
    expect(await watch.stuck(STUCK_WORKERS_MS * 2)).toEqual(['events']);
  });
});
