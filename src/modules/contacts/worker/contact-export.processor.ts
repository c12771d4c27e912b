import { WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { failOnLastAttempt } from '../../../platform/queues/last-attempt';
import { QueueProcessor } from '../../../platform/queues/queue-processor.decorator';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { ContactExportRunner } from '../export/contact-export-runner';

/** One export at a time per worker process: it reads the whole selection, page after page. */
@QueueProcessor(QUEUES.contactExport, { concurrency: 1 })
export class ContactExportProcessor extends WorkerHost {
  constructor(private readonly runner: ContactExportRunner) {
    super();
  }

  async process(job: Job<JobPayloads['contact-export']>): Promise<void> {
    const { projectId, exportId } = job.data;
    // Until the retries are used up the export stays `running`; the next attempt writes the file again from the first contact.
    await failOnLastAttempt(job, () => this.runner.run(projectId, exportId), (reason) => this.runner.fail(projectId, exportId, reason));
  }
}
