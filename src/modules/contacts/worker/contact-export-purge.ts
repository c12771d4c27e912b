import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { ContactExportsService } from '../export/contact-exports.service';

const HOUR_MS = 60 * 60_000;
const BATCH = 100;

/** Deletes bulk contact exports (files, then rows) 7 days after they were requested, every hour in processes that run workers. */
@Injectable()
export class ContactExportPurge extends PeriodicWorker {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly exports: ContactExportsService,
  ) {
    super(config, 'contact-export-purge', HOUR_MS);
  }

  protected async round(): Promise<void> {
    while (!this.stopped && (await this.exports.purgeExpired(BATCH)) === BATCH);
  }
}
