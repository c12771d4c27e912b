import { Injectable, OnModuleInit } from '@nestjs/common';
import { RetentionRegistry } from '../projects';
import { EventsRepository } from './events.repository';

/** Events in projects' `RetentionRegistry`: the storage view counts them and shows the oldest (docs/retention.md). */
@Injectable()
export class EventsRetention implements OnModuleInit {
  constructor(
    private readonly registry: RetentionRegistry,
    private readonly events: EventsRepository,
  ) {}

  onModuleInit(): void {
    this.registry.registerTable({ name: 'events', table: 'events', count: 'indexed', oldest: (projectId) => this.events.oldestOfProject(projectId) });
  }
}
