import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { PeriodicWorker } from '../queues/periodic-worker';
import { HistoryPartitions } from './history-partitions';

const HOUR_MS = 60 * 60_000;
/** Months made ahead of the current one: a quarter of margin should the workers stop for weeks. */
export const MONTHS_AHEAD = 3;

/**
 * Every hour, in processes that run workers, makes the history tables' partitions of this month
 * and the next three (idempotent; two processes at once serialise on the month's advisory lock in
 * `history_partition_ensure`). A row of a month nobody made still has a home, the default
 * partition, and moves into its month when the month is made.
 */
@Injectable()
export class HistoryPartitionsAhead extends PeriodicWorker {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly partitions: HistoryPartitions,
  ) {
    super(config, 'history-partitions-ahead', HOUR_MS);
  }

  protected round(): Promise<string[]> {
    return this.partitions.ensureAhead(MONTHS_AHEAD);
  }
}
