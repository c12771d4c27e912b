import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { logger } from '../../../platform/logging/logger';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';

type Payload = JobPayloads['workflow-step'];

/** Step jobs retry briefly; after the last attempt the execution is FAILED (see the processor). */
export const STEP_JOB_OPTIONS: JobsOptions = { attempts: 5, backoff: { type: 'exponential', delay: 1_000 } };

/**
 * Enqueues step runs and wake-ups. Job ids are deterministic (`<executionId>.<seq>` for a step,
 * `<source>.<executionId>.<seq>` for a wake-up), so a repeated enqueue adds nothing; the
 * database decides whether a job still has work (a job that finds its step done does nothing).
 */
@Injectable()
export class WorkflowQueue {
  private readonly log = logger('workflow-queue');

  constructor(@InjectQueue(QUEUES.workflowStep) private readonly queue: Queue<Payload>) {}

  async steps(items: Array<{ executionId: string; seq: number }>): Promise<void> {
    if (items.length === 0) return;
    await this.queue.addBulk(
      items.map(({ executionId, seq }) => ({ name: 'step', data: { executionId, seq }, opts: { ...STEP_JOB_OPTIONS, jobId: `${executionId}.${seq}` } })),
    );
  }

  /** Step jobs again for executions whose job was lost (`source` makes the ids new). */
  async reruns(items: Array<{ executionId: string; seq: number }>, source: string): Promise<void> {
    if (items.length === 0) return;
    await this.queue.addBulk(
      items.map(({ executionId, seq }) => ({ name: 'step', data: { executionId, seq }, opts: { ...STEP_JOB_OPTIONS, jobId: `${source}.${executionId}.${seq}` } })),
    );
  }

  /** `source`: `t` timer (delayed until due), `e` matching event, `s`/`r` sweep (with a time bucket, so a later sweep can add it again). */
  async wakes(items: Array<{ executionId: string; seq: number; delayMs?: number }>, source: string): Promise<void> {
    if (items.length === 0) return;
    await this.queue.addBulk(
      items.map(({ executionId, seq, delayMs }) => ({
        name: 'wake',
        data: { executionId, seq, wake: true },
        opts: { ...STEP_JOB_OPTIONS, jobId: `${source}.${executionId}.${seq}`, delay: Math.max(0, delayMs ?? 0) },
      })),
    );
  }

  /** After a commit: a failed enqueue is left to the sweep (the execution's state is in the database). */
  async stepsOrLeaveForSweep(items: Array<{ executionId: string; seq: number }>): Promise<void> {
    await this.steps(items).catch((err: unknown) => this.log.warn({ err, count: items.length }, 'enqueue failed; the sweep will pick these up'));
  }
}
