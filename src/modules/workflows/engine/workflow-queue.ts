import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { logger } from '../../../platform/logging/logger';
import { JobPayloads, QUEUES, StepRef } from '../../../platform/queues/queues';

type Payload = JobPayloads['workflow-step'];

/** Step jobs retry briefly; after the last attempt the execution is FAILED (see the processor). */
export const STEP_JOB_OPTIONS: JobsOptions = { attempts: 5, backoff: { type: 'exponential', delay: 1_000 } };

/**
 * Executions per grouped job (those a batch of events started): the group is loaded in one
 * statement and the queue does one job's work for all of them; each execution still advances
 * under its own condition, and one whose step fails goes on alone in a job with its retries.
 */
export const STEPS_PER_JOB = 50;

/**
 * Enqueues step runs and wake-ups. Job ids are deterministic (`<executionId>.<seq>` for a step,
 * `<source>.<executionId>.<seq>` for a wake-up), so a repeated enqueue adds nothing; the
 * database decides whether a job still has work (a job that finds its step done does nothing).
 */
@Injectable()
export class WorkflowQueue {
  private readonly log = logger('workflow-queue');

  constructor(@InjectQueue(QUEUES.workflowStep) private readonly queue: Queue<Payload>) {}

  async steps(items: StepRef[]): Promise<void> {
    if (items.length === 0) return;
    await this.queue.addBulk(
      items.map(({ executionId, seq }) => ({ name: 'step', data: { executionId, seq }, opts: { ...STEP_JOB_OPTIONS, jobId: `${executionId}.${seq}` } })),
    );
  }

  /** Step runs in groups of `STEPS_PER_JOB` (job id after the group's first step). */
  async groupedSteps(items: StepRef[]): Promise<void> {
    if (items.length <= 1) return this.steps(items);
    const jobs = [];
    for (let i = 0; i < items.length; i += STEPS_PER_JOB) {
      const steps = items.slice(i, i + STEPS_PER_JOB);
      jobs.push({ name: 'steps', data: { steps }, opts: { ...STEP_JOB_OPTIONS, jobId: `g.${steps[0].executionId}.${steps[0].seq}` } });
    }
    await this.queue.addBulk(jobs);
  }

  /** Steps of a group that failed go on alone, each in a job with the retries left, the first after a backoff's delay. */
  async stepsAlone(items: StepRef[]): Promise<void> {
    if (items.length === 0) return;
    const attempts = (STEP_JOB_OPTIONS.attempts ?? 1) - 1;
    await this.queue.addBulk(
      items.map(({ executionId, seq }) => ({
        name: 'step',
        data: { executionId, seq },
        opts: { ...STEP_JOB_OPTIONS, attempts, delay: 1_000, jobId: `a.${executionId}.${seq}` },
      })),
    );
  }

  /** Step jobs again for executions whose job was lost (`source` makes the ids new). */
  async reruns(items: StepRef[], source: string): Promise<void> {
    if (items.length === 0) return;
    await this.queue.addBulk(
      items.map(({ executionId, seq }) => ({ name: 'step', data: { executionId, seq }, opts: { ...STEP_JOB_OPTIONS, jobId: `${source}.${executionId}.${seq}` } })),
    );
  }

  /**
   * Wake-ups, in groups of `STEPS_PER_JOB` that fall due together (a round of DELAYs, a batch of
   * matching events, a sweep): one job resumes a group in one statement. `source`: `t` timer
   * (delayed until due), `e` matching event, `s` sweep (with a time bucket, so a later sweep can
   * add it again).
   */
  async wakes(items: Array<{ executionId: string; seq: number; delayMs?: number }>, source: string): Promise<void> {
    const byDelay = new Map<number, StepRef[]>();
    for (const { executionId, seq, delayMs } of items) {
      const delay = Math.max(0, delayMs ?? 0);
      const refs = byDelay.get(delay);
      if (refs) refs.push({ executionId, seq });
      else byDelay.set(delay, [{ executionId, seq }]);
    }
    const jobs = [];
    for (const [delay, refs] of byDelay) {
      for (let i = 0; i < refs.length; i += STEPS_PER_JOB) {
        const group = refs.slice(i, i + STEPS_PER_JOB);
        jobs.push({ name: 'wakes', data: { wakes: group }, opts: { ...STEP_JOB_OPTIONS, jobId: `${source}.g.${group[0].executionId}.${group[0].seq}`, delay } });
      }
    }
    if (jobs.length) await this.queue.addBulk(jobs);
  }

  /** After a commit: a failed enqueue is left to the sweep (the execution's state is in the database). */
  async stepsOrLeaveForSweep(items: StepRef[]): Promise<void> {
    await this.steps(items).catch((err: unknown) => this.log.warn({ err, count: items.length }, 'enqueue failed; the sweep will pick these up'));
  }
}
