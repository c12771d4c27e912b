import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { WebhookMaintenance } from '../engine/webhook-maintenance';

/**
 * The database is the source of truth: every `WEBHOOK_SWEEP_INTERVAL_MS` (5 s) in processes that
 * run workers, pending deliveries overdue by more than `WEBHOOK_SWEEP_GRACE_MS` (a lost delayed
 * job, a worker killed mid-attempt whose lease ran out) are queued again, endpoints failing for
 * the auto-disable window are disabled FAILING (their owners told once), and, hourly, deliveries
 * older than 30 days are purged. Each step is safe to run in several processes at once.
 */
@Injectable()
export class WebhookSweeper extends PeriodicWorker {
  private readonly log = logger('webhook-sweeper');

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly maintenance: WebhookMaintenance,
  ) {
    super(config, 'webhook-sweeper', config.webhooks.sweepIntervalMs);
  }

  protected async round(): Promise<void> {
    const requeued = await this.maintenance.requeueOverdue();
    const disabled = await this.maintenance.disableFailing();
    const purged = await this.maintenance.purgeExpiredHourly(() => this.stopped);
    if (requeued || disabled || purged) this.log.info({ requeued, disabled, purged }, 'swept webhook deliveries');
  }
}
