import { WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { QueueProcessor } from '../../../platform/queues/queue-processor.decorator';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { WorkflowEngine } from '../engine/workflow-engine';
import { STEP_JOB_OPTIONS, WorkflowQueue } from '../engine/workflow-queue';

/** Thin: one engine call per job; after the last failed attempt the execution FAILS with the error. A group's failed steps go on alone; a group of wake-ups retries whole. */
@QueueProcessor(QUEUES.workflowStep, { concurrency: 32 })
export class WorkflowStepProcessor extends WorkerHost {
  constructor(
    private readonly engine: WorkflowEngine,
    private readonly queue: WorkflowQueue,
  ) {
    super();
  }

  async process(job: Job<JobPayloads['workflow-step']>): Promise<void> {
    if (job.data.steps) {
      // A failure to requeue fails this job: its retry finds the steps already run done.
      await this.queue.stepsAlone(await this.engine.runSteps(job.data.steps));
      return;
    }
    if (job.data.wakes) {
      // Idempotent: a retry resumes only what is still waiting; the sweep covers the rest.
      await this.engine.wake(job.data.wakes);
      return;
    }
    const { executionId, seq, wake } = job.data;
    try {
      if (wake) await this.engine.wake([{ executionId, seq }]);
      else await this.engine.runStep(executionId, seq);
    } catch (err) {
      if (!wake && job.attemptsMade + 1 >= (job.opts.attempts ?? STEP_JOB_OPTIONS.attempts ?? 1)) {
        await this.engine.failStep(executionId, seq, (err as Error).message);
        return;
      }
      throw err;
    }
  }
}
