import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../../../../config/config';
import { InjectConfig } from '../../../../config/config.module';
import { logger } from '../../../logging/logger';
import { PeriodicRound } from '../../../queues/periodic-round';
import { IdempotencyService } from '../idempotency.service';

const INTERVAL_MS = 10 * 60_000;

/** Every 10 minutes, in processes that run workers: expired idempotency keys go. */
@Injectable()
export class IdempotencyPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly rounds = new PeriodicRound(
    () => this.keys.purgeExpired(),
    (err) => logger('idempotency').warn({ err }, 'purging expired idempotency keys failed'),
  );

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly keys: IdempotencyService,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.start(this.config, INTERVAL_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.rounds.stop();
  }
}
