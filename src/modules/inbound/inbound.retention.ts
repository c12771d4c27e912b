import { Injectable, OnModuleInit } from '@nestjs/common';
import { RetentionRegistry } from '../projects';
import { InboundService } from './inbound.service';

/**
 * Received mail under the project's retention (projects' `RetentionRegistry`): messages past
 * `inboundDays` go, raw bytes then rows, 500 at a time; the storage view counts the table.
 */
@Injectable()
export class InboundRetention implements OnModuleInit {
  constructor(
    private readonly registry: RetentionRegistry,
    private readonly inbound: InboundService,
  ) {}

  onModuleInit(): void {
    this.registry.registerPruner({ name: 'inbound-messages', kind: 'inboundDays', batchSize: 500, prune: async (projectId, range, limit) => ({ count: await this.inbound.pruneReceived(projectId, range, limit) }) });
    this.registry.registerTable({ name: 'inboundMessages', table: 'inbound_messages', count: 'indexed' });
  }
}
