import { BullModule } from '@nestjs/bullmq';
import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUES } from '../../platform/queues/queues';
import { AuthModule } from '../auth';
import { EventsModule, EventConsumerRegistry } from '../events';
import { ProjectsModule } from '../projects';
import { DeliveriesStore } from './deliveries.store';
import { WebhookFanOut } from './engine/webhook-fanout';
import { WebhookMaintenance } from './engine/webhook-maintenance';
import { WebhookQueue } from './engine/webhook-queue';
import { WebhookSender } from './engine/webhook-sender';
import { WebhookAttempt } from './entities/webhook-attempt.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';
import { WebhookDeliveryProcessor } from './worker/webhook-delivery.processor';
import { WebhookSweeper } from './worker/webhook-sweeper';
import { WebhooksRetention } from './webhooks.retention';

@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt]), BullModule.registerQueue({ name: QUEUES.webhookDelivery }), EventsModule, ProjectsModule, AuthModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    DeliveriesStore,
    WebhooksService,
    WebhookDeliveriesService,
    WebhookQueue,
    WebhookSender,
    WebhookFanOut,
    WebhookMaintenance,
    WebhookDeliveryProcessor,
    WebhookSweeper,
    WebhooksRetention,
  ],
  exports: [WebhooksService],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly consumers: EventConsumerRegistry,
    private readonly fanOut: WebhookFanOut,
  ) {}

  /** One outbox consumer fans events out to the endpoints (any process running workers). */
  onModuleInit(): void {
    this.consumers.register(this.fanOut);
  }
}
