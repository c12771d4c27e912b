import type { WorkersService } from '../queues/workers.service';
import { ReadinessRegistry } from './readiness.registry';
import { STUCK_WORKERS_MS, StuckWorkersWatch } from './stuck-workers';

describe('StuckWorkersWatch (liveness)', () => {
  let unable: string[];
  let backendUp: boolean;
  let probes: number;
  let hold: Promise<void> | undefined;
  let watch: StuckWorkersWatch;

  /** One liveness probe at `now`, then the backend check it started (if any) settles. */
  const probe = async (now: number): Promise<string[]> => {
    const stuck = await watch.stuck(now);
    await watch.checked();
    return stuck;
  };

  beforeEach(() => {
    unable = [];
    backendUp = true;
    probes = 0;
    hold = undefined;
    const readiness = new ReadinessRegistry();
    readiness.register('queue', async () => {
      probes++;
      await hold;
      if (!backendUp) throw new Error('connection refused');
    });
    const workers = { runsWorkers: true, unableWorkers: async () => unable } as unknown as WorkersService;
    watch = new StuckWorkersWatch(workers, readiness);
  });

  it('is alive, and asks nothing of the backend, while every worker can work', async () => {
    expect(await probe(0)).toEqual([]);
    expect(await probe(10 * STUCK_WORKERS_MS)).toEqual([]);
    expect(probes).toBe(0);
  });

  it('names the workers unable to work for the whole period while the backend answered', async () => {
    unable = ['send-email'];
    expect(await probe(1_000)).toEqual([]);
    expect(await probe(1_000 + STUCK_WORKERS_MS - 1)).toEqual([]);
    expect(await probe(1_000 + STUCK_WORKERS_MS)).toEqual(['send-email']);
  });

  it('stays alive while the backend does not answer (a restart would not help), and counts again from its return', async () => {
    unable = ['send-email'];
    backendUp = false;
    expect(await probe(0)).toEqual([]);
    expect(await probe(5 * STUCK_WORKERS_MS)).toEqual([]);
    backendUp = true;
    expect(await probe(5 * STUCK_WORKERS_MS + 1_000)).toEqual([]);
    expect(await probe(6 * STUCK_WORKERS_MS + 999)).toEqual([]);
    expect(await probe(6 * STUCK_WORKERS_MS + 1_000)).toEqual(['send-email']);
  });

  it('starts over when the workers recover', async () => {
    unable = ['events'];
    await probe(0);
    unable = [];
    expect(await probe(STUCK_WORKERS_MS / 2)).toEqual([]);
    unable = ['events'];
    expect(await probe(STUCK_WORKERS_MS)).toEqual([]);
    expect(await probe(STUCK_WORKERS_MS * 2)).toEqual(['events']);
  });

  it('answers without waiting for a backend check that hangs, and runs one check at a time', async () => {
    unable = ['send-email'];
    let release!: () => void;
    hold = new Promise<void>((resolve) => (release = resolve));
    expect(await watch.stuck(0)).toEqual([]);
    expect(await watch.stuck(1)).toEqual([]);
    expect(probes).toBe(1);
    release();
    await watch.checked();
    expect(await probe(STUCK_WORKERS_MS)).toEqual(['send-email']);
  });
});
