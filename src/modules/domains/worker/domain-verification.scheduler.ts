import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { DomainsService } from '../domains.service';
import { ADVISORY_LOCKS } from '../../../platform/database/advisory-locks';
import { SingletonLocks } from '../../../platform/database/singleton-locks';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';

const BATCH = 100;
const CONCURRENCY = 8;
const INTERVAL_MS = 5 * 60_000;

/**
 * Re-checks pending and verified domains every 5 minutes, only in processes that run workers
 * (and not with DOMAIN_VERIFICATION=off). Several workers may fire together: a PostgreSQL
 * advisory lock lets one run, and a domain checked less than 4 minutes ago is skipped, so a late
 * runner does not repeat the round.
 */
@Injectable()
export class DomainVerificationScheduler extends PeriodicWorker {
  private readonly log = logger('domain-verification');

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly locks: SingletonLocks,
    private readonly domains: DomainsService,
  ) {
    super(config, 'domain-verification', config.domainVerification !== 'off' ? INTERVAL_MS : null);
  }

  protected round(): Promise<number> {
    return this.runOnce();
  }

  /** One round over every due domain; returns how many were checked (0 when another process holds the lock). */
  async runOnce(): Promise<number> {
    return this.locks.withLock(ADVISORY_LOCKS.domainVerification, 'round', 0, async () => {
      let checked = 0;
      let afterId: string | null = null;
      while (!this.stopped) {
        const due = await this.domains.dueForCheck(afterId, BATCH);
        if (due.length === 0) break;
        for (let i = 0; i < due.length; i += CONCURRENCY) {
          await Promise.all(
            due.slice(i, i + CONCURRENCY).map((row) =>
              this.domains.check(row).catch((err: unknown) => this.log.warn({ err, domain: row.domain }, 'domain check failed')),
            ),
          );
        }
        checked += due.length;
        afterId = due[due.length - 1].id;
      }
      return checked;
    });
  }
}
