import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../../config/config';
import { InjectConfig } from '../../../../config/config.module';
import { PeriodicWorker } from '../../../queues/periodic-worker';
import { CounterStore } from '../counter-store';
import { PostgresCounterStore } from '../postgres-counter.store';

const INTERVAL_MS = 5 * 60_000;

/** Every 5 minutes, in processes that run workers: expired `rate_counters` rows go (only when PostgreSQL holds the counters). */
@Injectable()
export class RateCountersPurge extends PeriodicWorker {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly counters: CounterStore,
  ) {
    super(config, 'rate-limit', counters instanceof PostgresCounterStore ? INTERVAL_MS : null);
  }

  protected round(): Promise<unknown> {
    return (this.counters as PostgresCounterStore).purgeExpired();
  }
}
