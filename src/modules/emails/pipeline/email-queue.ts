import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { logger } from '../../../platform/logging/logger';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import type { EmailType } from '../entities/email.entity';
import { Batcher } from '../../../platform/batching/batcher';

/**
 * Retries are job options. Temporary failures (SMTP 4xx, network, SES throttling) back off
 * exponentially from 3 s over 10 attempts (about 25 minutes in all); permanent ones are not
 * retried (the pipeline records them and completes the job).
 */
export const EMAIL_JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 3_000 },
  removeOnComplete: { age: 600, count: 5_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** BullMQ takes unprioritized jobs first, so transactional mail needs none and bulk mail waits behind it. */
const BULK_PRIORITY = 10;

@Injectable()
export class EmailQueue {
  private readonly log = logger('email-queue');
  /** Concurrent requests share one `addBulk` round trip. */
  private readonly adds: Batcher<{ ids: string[]; type: EmailType }, undefined>;

  constructor(@InjectQueue(QUEUES.emailSend) private readonly queue: Queue<JobPayloads['email-send']>) {
    this.adds = new Batcher({
      runBatch: async (batches) => {
        await this.queue.addBulk(
          batches.flatMap(({ ids, type }) => {
            const priority = type === 'TRANSACTIONAL' ? undefined : BULK_PRIORITY;
            return ids.map((emailId) => ({ name: 'send', data: { emailId }, opts: { ...EMAIL_JOB_OPTIONS, jobId: emailId, priority } }));
          }),
        );
        return batches.map(() => undefined);
      },
    });
  }

  /** Job id = email id: enqueuing an email twice (retry, sweep) adds one job. */
  async enqueue(emailIds: string[], type: EmailType): Promise<void> {
    if (emailIds.length === 0) return;
    await this.adds.run({ ids: emailIds, type });
  }

  /** Enqueues after the rows are committed; a failure here leaves rows `queued` for the sweep to pick up. */
  async enqueueOrLeaveForSweep(emailIds: string[], type: EmailType): Promise<void> {
    try {
      await this.enqueue(emailIds, type);
    } catch (err) {
      this.log.error({ err, count: emailIds.length }, 'enqueue failed; the sweep will retry');
    }
  }
}
