import { WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job, Worker, WorkerOptions } from 'bullmq';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { QueueProcessor } from '../../../platform/queues/queue-processor.decorator';
import type { ConfiguresWorker } from '../../../platform/queues/workers.service';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { SEND_RATE } from '../transports/send-rate.provider';
import { EmailPipeline } from '../engine/email-pipeline';
import { EmailQueue } from '../engine/email-queue';

/** The send rate (`SEND_RATE_PER_SECOND`, or the SES account's) as BullMQ's rate limit, one budget per queue across every worker process. */
export function sendLimiter(ratePerSecond: number | undefined): WorkerOptions['limiter'] {
  if (!ratePerSecond) return undefined;
  if (Number.isInteger(ratePerSecond)) return { max: ratePerSecond, duration: 1000 };
  return { max: 1, duration: Math.ceil(1000 / ratePerSecond) };
}

@QueueProcessor(QUEUES.emailSend)
export class EmailSendProcessor extends WorkerHost implements ConfiguresWorker {
  /** BullMQ's limiter counts jobs: under a rate limit, every email needs a job of its own. */
  private readonly rateLimited: boolean;
  private readonly concurrency: number;
  private readonly limiter: WorkerOptions['limiter'];

  constructor(
    private readonly pipeline: EmailPipeline,
    private readonly queue: EmailQueue,
    @InjectConfig() config: AppConfig,
    @Inject(SEND_RATE) sendRate: number | undefined,
  ) {
    super();
    this.rateLimited = sendRate !== undefined;
    this.concurrency = config.email.sendConcurrency;
    this.limiter = sendLimiter(sendRate);
  }

  /** Concurrency and the shared send budget come from config, which the decorator cannot read. */
  async configureWorker(worker: Worker): Promise<void> {
    worker.concurrency = this.concurrency;
    await this.queue.setSendBudget(this.limiter);
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
