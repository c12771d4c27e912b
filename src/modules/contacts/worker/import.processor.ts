import { WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { failOnLastAttempt } from '../../../platform/queues/last-attempt';
import { QueueProcessor } from '../../../platform/queues/queue-processor.decorator';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { ImportRunner } from '../import/import-runner';

/** One import at a time per worker process: a batch already saturates the database. */
@QueueProcessor(QUEUES.contactImport, { concurrency: 1 })
export class ImportProcessor extends WorkerHost {
  constructor(private readonly runner: ImportRunner) {
    super();
  }

  async process(job: Job<JobPayloads['contact-import']>): Promise<void> {
    const { projectId, importJobId } = job.data;
    // Until the retries are used up the job stays `processing`; the next attempt resumes after the last committed batch.
    await failOnLastAttempt(job, () => this.runner.run(projectId, importJobId), (reason) => this.runner.fail(projectId, importJobId, reason));
  }
}
