import { WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
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
    try {
      await this.runner.run(projectId, importJobId);
    } catch (err) {
      // The job row reports `failed` only once the retries are used up; until then it stays
      // `processing` and the next attempt resumes after the last committed batch.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await this.runner.fail(projectId, importJobId, err instanceof Error ? err.message : String(err));
      }
      throw err;
    }
  }
}
