import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Interval } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { WorkflowQueue } from './workflow-queue';

const BATCH = 1_000;

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: WorkflowQueue,
  ) {}

  @Interval(5_000)
  async sweep(): Promise<void> {
    if (this.config.role === 'api' || this.running) return;
    this.running = true;
    try {
      const bucket = Math.floor(Date.now() / 60_000);
      const due: Array<{ id: string; steps_run: number }> = await this.dataSource.query(
        `SELECT id, steps_run FROM workflow_executions WHERE status = 'WAITING' AND wake_at <= now() - interval '5 seconds' ORDER BY wake_at LIMIT ${BATCH}`,
      );
      await this.queue.wakes(due.map((r) => ({ executionId: r.id, seq: r.steps_run })), `s${bucket}`);
      const stale: Array<{ id: string; steps_run: number }> = await this.dataSource.query(
        `SELECT id, steps_run FROM workflow_executions WHERE status = 'RUNNING' AND updated_at <= now() - interval '2 minutes' ORDER BY updated_at LIMIT ${BATCH}`,
      );
      // A fresh job id (not `<id>.<seq>`, which may be a finished job kept for inspection).
      await this.queue.reruns(stale.map((r) => ({ executionId: r.id, seq: r.steps_run })), `r${bucket}`);
      if (due.length || stale.length) this.log.info({ due: due.length, stale: stale.length }, 'swept workflow executions');
    } catch (err) {
      this.log.warn({ err }, 'workflow sweep failed');
    } finally {
      this.running = false;
    }
  }
}
