import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../../../../config/config';
import { InjectConfig } from '../../../../config/config.module';
import { logger } from '../../../logging/logger';
import { PeriodicRound } from '../../../queues/periodic-round';
import { CounterStore } from '../counter-store';
import { PostgresCounterStore } from '../postgres-counter.store';

const INTERVAL_MS = 5 * 60_000;

/** Every 5 minutes, in processes that run workers: expired `rate_counters` rows go (only when PostgreSQL holds the counters). */
@Injectable()
export class RateCountersPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly rounds = new PeriodicRound(
    () => (this.counters as PostgresCounterStore).purgeExpired(),
    (err) => logger('rate-limit').warn({ err }, 'purging expired rate counters failed'),
  );

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly counters: CounterStore,
  ) {}

  onApplicationBootstrap(): void {
    if (this.counters instanceof PostgresCounterStore) this.rounds.start(this.config, INTERVAL_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.rounds.stop();
  }
}
