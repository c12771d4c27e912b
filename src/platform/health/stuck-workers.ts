import { Injectable } from '@nestjs/common';
import { WorkersService } from '../queues/workers.service';
import { within } from '../within';
import { READINESS_CHECK_TIMEOUT_MS, ReadinessRegistry } from './readiness.registry';

/** How long workers may stay unable to work while the queue backend answers before liveness fails. */
export const STUCK_WORKERS_MS = 120_000;

/**
 * The liveness probe's one question: are this process's queue workers stuck for good? They are
 * when some cannot work (a run loop ended, a Redis connection not open) for `STUCK_WORKERS_MS`
 * while the queue backend itself answers a new connection (the readiness `queue` check): the
 * dependency is back and this process did not recover, so a restart is what helps. While the
 * backend does not answer, a restart would not help: liveness stays up and readiness says why.
 *
 * Sampled at each probe, and never waited for: while a worker is unable to work, a probe starts
 * a check of the backend in the background (one at a time) and answers from what the checks found
 * so far, so `/health` stays fast during an outage. Nothing is asked of the backend otherwise.
 */
@Injectable()
export class StuckWorkersWatch {
  /** Since when a check has found the backend answering while workers were unable to work. */
  private since: number | undefined;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly workers: WorkersService,
    private readonly readiness: ReadinessRegistry,
  ) {}

  /** The stuck workers' queue names (none: alive). */
  async stuck(now = Date.now()): Promise<string[]> {
    const unable = this.workers.runsWorkers ? await this.workers.unableWorkers() : [];
    if (unable.length === 0) {
      this.since = undefined;
      return [];
    }
    this.checking ??= this.backendAnswers()
      .then((answers) => {
        this.since = answers ? (this.since ?? now) : undefined;
      })
      .finally(() => (this.checking = undefined));
    return this.since !== undefined && now - this.since >= STUCK_WORKERS_MS ? unable : [];
  }

  /** The backend check under way, if any (tests wait for it). */
  checked(): Promise<void> {
    return this.checking ?? Promise.resolve();
  }

  /** The readiness `queue` check, answering within its usual time. */
  private async backendAnswers(): Promise<boolean> {
    const check = this.readiness.get('queue');
    if (!check) return false;
    return within(check().then(() => true), READINESS_CHECK_TIMEOUT_MS, false).catch(() => false);
  }
}
