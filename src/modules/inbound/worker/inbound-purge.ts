import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { InboundService } from '../inbound.service';

const BATCH = 500;

/** Drops received messages (rows and raw bytes) older than `INBOUND_RETENTION_DAYS`, every `INBOUND_PURGE_INTERVAL_MS`. */
@Injectable()
export class InboundPurge extends PeriodicWorker {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly inbound: InboundService,
  ) {
    super(config, 'inbound-purge', config.inbound.purgeIntervalMs);
  }

  protected async round(): Promise<void> {
    while (!this.stopped && (await this.inbound.purgeExpired(this.config.inbound.retentionDays, BATCH)) === BATCH);
  }
}
