import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { AuditLogService } from '../audit-log.service';

const HOUR_MS = 60 * 60_000;
/** Rows a statement deletes: short statements, no long lock on the table. */
const BATCH = 1_000;

/** Drops audit log entries past `AUDIT_RETENTION_DAYS`, in batches, every hour in processes that run workers. */
@Injectable()
export class AuditPurge extends PeriodicWorker {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly audit: AuditLogService,
  ) {
    super(config, 'audit-purge', HOUR_MS);
  }

  protected async round(): Promise<void> {
    while (!this.stopped && (await this.audit.purgeExpired(BATCH)) === BATCH);
  }
}
