import { WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { failOnLastAttempt } from '../../../platform/queues/last-attempt';
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
    // Until the retries are used up the job stays `processing` and resumes after its last chunk.
    await failOnLastAttempt(job, () => this.runner.run(projectId, bulkJobId), (reason) => this.runner.fail(projectId, bulkJobId, reason));
  }
}
