import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../../config/config';
import { InjectConfig } from '../../../../config/config.module';
import { PeriodicWorker } from '../../../queues/periodic-worker';
import { IdempotencyService } from '../idempotency.service';

const INTERVAL_MS = 10 * 60_000;

/** Every 10 minutes, in processes that run workers: expired idempotency keys go. */
@Injectable()
export class IdempotencyPurge extends PeriodicWorker {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly keys: IdempotencyService,
  ) {
    super(config, 'idempotency', INTERVAL_MS);
  }

  protected round(): Promise<unknown> {
    return this.keys.purgeExpired();
  }
}
