import { WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { QueueProcessor } from '../../../platform/queues/queue-processor.decorator';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { ErasureRunner } from '../erasure/erasure-runner';

@QueueProcessor(QUEUES.contactErasure)
export class ErasureProcessor extends WorkerHost {
  constructor(private readonly runner: ErasureRunner) {
    super();
  }

  async process(job: Job<JobPayloads['contact-erasure']>): Promise<void> {
    const { projectId, erasureId } = job.data;
    try {
      await this.runner.run(projectId, erasureId);
    } catch (err) {
      // Until the retries are used up the erasure stays `running` and resumes after its last step.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await this.runner.fail(projectId, erasureId, err instanceof Error ? err.message : String(err));
      }
      throw err;
    }
  }
}
