import { Injectable, OnModuleInit } from '@nestjs/common';
import { RetentionRegistry } from '../projects';

/** Webhook deliveries in projects' `RetentionRegistry`: the storage view estimates them (no index leads that table with the project). */
@Injectable()
export class WebhooksRetention implements OnModuleInit {
  constructor(private readonly registry: RetentionRegistry) {}

  onModuleInit(): void {
    this.registry.registerTable({ name: 'webhookDeliveries', table: 'webhook_deliveries', count: 'estimated' });
  }
}
