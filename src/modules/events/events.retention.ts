import { Injectable, OnModuleInit } from '@nestjs/common';
import { RetentionRegistry } from '../projects';
import { EventsRepository } from './events.repository';

/**
 * Events in projects' `RetentionRegistry`: past `eventsDays` they go, whole months dropped and the
 * rest in batches, the hourly counts keeping them (docs/history-tables.md); the storage view counts
 * them and shows the oldest (docs/retention.md).
 */
@Injectable()
export class EventsRetention implements OnModuleInit {
  constructor(
    private readonly registry: RetentionRegistry,
    private readonly events: EventsRepository,
  ) {}

  onModuleInit(): void {
    this.registry.registerPruner({
      name: 'events',
      kind: 'eventsDays',
      batchSize: 500,
      partitioned: 'events',
      prune: async (projectId, range, limit) => ({ count: await this.events.pruneBatch(projectId, range, limit) }),
    });
    this.registry.registerTable({ name: 'events', table: 'events', count: 'indexed', oldest: (projectId) => this.events.oldestOfProject(projectId) });
  }
}
