import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { ExecutionsStore } from '../engine/executions.store';
import { WorkflowQueue } from '../engine/workflow-queue';

/**
 * The database is the source of truth: a WAITING execution past its due time (its delayed job
 * lost, e.g. with Redis data) is woken, and a RUNNING one untouched for 2 minutes (its step job
 * lost) gets its step job again. Job ids carry a minute bucket so a later sweep can retry.
 */
@Injectable()
export class WorkflowSweeper {
  private readonly log = logger('workflow-sweeper');
  private running = false;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly store: ExecutionsStore,
    private readonly queue: WorkflowQueue,
  ) {}

  @Interval(5_000)
  async sweep(): Promise<void> {
    if (this.config.role === 'api' || this.running) return;
    this.running = true;
    try {
      const bucket = Math.floor(Date.now() / 60_000);
      const due = await this.store.overdueWaits();
      await this.queue.wakes(due, `s${bucket}`);
      const stale = await this.store.staleRuns();
      // A fresh job id (not `<id>.<seq>`, which may be a finished job kept for inspection).
      await this.queue.reruns(stale, `r${bucket}`);
      if (due.length || stale.length) this.log.info({ due: due.length, stale: stale.length }, 'swept workflow executions');
    } catch (err) {
      this.log.warn({ err }, 'workflow sweep failed');
    } finally {
      this.running = false;
    }
  }
}
