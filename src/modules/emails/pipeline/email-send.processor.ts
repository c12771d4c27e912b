import { WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job, WorkerOptions } from 'bullmq';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { QueueProcessor } from '../../../platform/queues/queue-processor.decorator';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { SEND_RATE } from '../transports/send-rate.provider';
import { EmailPipeline } from './email-pipeline';
import { EmailQueue } from './email-queue';

/** @nestjs/bullmq's metadata key for worker options (read when the worker is built, after construction). */
const WORKER_METADATA = 'bullmq:worker_metadata';

/** The send rate (`SEND_RATE_PER_SECOND`, or the SES account's) as BullMQ's limiter, which is one budget per queue across every worker process. */
export function sendLimiter(ratePerSecond: number | undefined): WorkerOptions['limiter'] {
  if (!ratePerSecond) return undefined;
  if (Number.isInteger(ratePerSecond)) return { max: ratePerSecond, duration: 1000 };
  return { max: 1, duration: Math.ceil(1000 / ratePerSecond) };
}

@QueueProcessor(QUEUES.emailSend)
export class EmailSendProcessor extends WorkerHost {
  /** BullMQ's limiter counts jobs: under a rate limit, every email needs a job of its own. */
  private readonly rateLimited: boolean;

  constructor(
    private readonly pipeline: EmailPipeline,
    private readonly queue: EmailQueue,
    @InjectConfig() config: AppConfig,
    @Inject(SEND_RATE) sendRate: number | undefined,
  ) {
    super();
    this.rateLimited = sendRate !== undefined;
    // Concurrency and the shared rate budget come from config, which decorators cannot read.
    const declared = (Reflect.getMetadata(WORKER_METADATA, EmailSendProcessor) ?? {}) as Partial<WorkerOptions>;
    Reflect.defineMetadata(
      WORKER_METADATA,
      { ...declared, concurrency: config.email.sendConcurrency, limiter: sendLimiter(sendRate) },
      EmailSendProcessor,
    );
  }

  async process(job: Job<JobPayloads['email-send']>): Promise<void> {
    const { emailId, emailIds } = job.data;
    if (emailIds === undefined) {
      await this.pipeline.deliver(emailId, { isLast: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) });
      return;
    }
    if (this.rateLimited) {
      await this.queue.requeueAlone(emailIds, job.opts.priority, { retry: false });
      return;
    }
    // A failure to requeue fails this job: its retry skips the emails already sent (status check).
    const again = await this.pipeline.deliverGroup(emailIds);
    await this.queue.requeueAlone(again, job.opts.priority, { retry: true });
  }
}
