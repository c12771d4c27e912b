import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { ExecutionsStore } from '../engine/executions.store';
import { WorkflowQueue } from '../engine/workflow-queue';

const SWEEP_INTERVAL_MS = 5_000;

/**
 * The database is the source of truth: a WAITING execution past its due time (its delayed job
 * lost, e.g. with Redis data) is woken, and a RUNNING one untouched for 2 minutes (its step job
 * lost) gets its step job again. Job ids carry a minute bucket so a later sweep can retry.
 * Runs every 5 s in processes that run workers, one round at a time.
 */
@Injectable()
export class WorkflowSweeper extends PeriodicWorker {
  private readonly log = logger('workflow-sweeper');

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly store: ExecutionsStore,
    private readonly queue: WorkflowQueue,
  ) {
    super(config, 'workflow-sweeper', SWEEP_INTERVAL_MS);
  }

  protected async round(): Promise<void> {
    const bucket = Math.floor(Date.now() / 60_000);
    const due = await this.store.overdueWaits();
    await this.queue.wakes(due, `s${bucket}`);
    const stale = await this.store.staleRuns();
    // A fresh job id (not `<id>.<seq>`, which may be a finished job kept for inspection).
    await this.queue.reruns(stale, `r${bucket}`);
    if (due.length || stale.length) this.log.info({ due: due.length, stale: stale.length }, 'swept workflow executions');
  }
}
