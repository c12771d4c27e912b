import { WorkerHost } from '@nestjs/bullmq';
import type { Job, Worker } from 'bullmq';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { QueueProcessor } from '../../../platform/queues/queue-processor.decorator';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import type { ConfiguresWorker } from '../../../platform/queues/workers.service';
import { workerSlots } from '../engine/webhook-queue';
import { WebhookSender } from '../engine/webhook-sender';

@QueueProcessor(QUEUES.webhookDelivery)
export class WebhookDeliveryProcessor extends WorkerHost implements ConfiguresWorker {
  constructor(
    private readonly sender: WebhookSender,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    super();
  }

  configureWorker(worker: Worker): void {
    worker.concurrency = workerSlots(this.config.webhooks.concurrency);
  }

  async process(job: Job<JobPayloads['webhook-delivery']>): Promise<void> {
    await this.sender.deliver(job.data.deliveryIds);
  }
}
