import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ADVISORY_LOCKS } from '../../../platform/database/advisory-locks';
import { SingletonLocks } from '../../../platform/database/singleton-locks';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { RetentionService } from '../retention.service';

/**
 * Every RETENTION_PRUNE_INTERVAL_MS (default 1 hour), in processes that run workers, prunes what
 * each project's retention lets go (the pruners modules register; docs/retention.md). A
 * PostgreSQL advisory lock lets one process run a round; the others skip it.
 */
@Injectable()
export class RetentionPrune extends PeriodicWorker {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly locks: SingletonLocks,
    private readonly retention: RetentionService,
  ) {
    super(config, 'retention-prune', config.retention.pruneIntervalMs);
  }

  protected round(): Promise<number> {
    return this.locks.withLock(ADVISORY_LOCKS.retentionPrune, 'round', 0, () => this.retention.pruneRound(() => this.stopped));
  }
}
