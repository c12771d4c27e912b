import { WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { QueueProcessor } from '../../../platform/queues/queue-processor.decorator';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { BulkRunner } from '../bulk/bulk-runner';

@QueueProcessor(QUEUES.contactBulk)
export class BulkProcessor extends WorkerHost {
  constructor(private readonly runner: BulkRunner) {
    super();
  }

  async process(job: Job<JobPayloads['contact-bulk']>): Promise<void> {
    const { projectId, bulkJobId } = job.data;
    try {
      await this.runner.run(projectId, bulkJobId);
    } catch (err) {
      // Until the retries are used up the job stays `processing` and resumes after its last chunk.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await this.runner.fail(projectId, bulkJobId, err instanceof Error ? err.message : String(err));
      }
      throw err;
    }
  }
}
