import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ADVISORY_LOCKS } from '../../../platform/database/advisory-locks';
import { SingletonLocks } from '../../../platform/database/singleton-locks';
import { logger } from '../../../platform/logging/logger';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { SegmentsRepository } from '../segments.repository';
import { SegmentsService } from '../segments.service';

/**
 * Every SEGMENT_RECOMPUTE_INTERVAL_MS (default 5 minutes), in processes that run workers, walks
 * every segment by id: tracked DYNAMIC segments are computed (membership and entry/exit events),
 * the others get a fresh `memberCount`. A PostgreSQL advisory lock lets one process run a round;
 * the others skip it. A segment that fails (e.g. its statement timeout) is logged and skipped.
 */
@Injectable()
export class SegmentRecomputeScheduler extends PeriodicWorker {
  private readonly log = logger('segment-recompute');

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly locks: SingletonLocks,
    private readonly segments: SegmentsService,
    private readonly repository: SegmentsRepository,
  ) {
    super(config, 'segment-recompute', config.segments.recomputeIntervalMs);
  }

  protected round(): Promise<number> {
    return this.runOnce();
  }

  /** One round over every segment; returns how many were recomputed (0 when another process holds the lock). */
  async runOnce(): Promise<number> {
    return this.locks.withLock(ADVISORY_LOCKS.segmentRecompute, 'round', 0, async () => {
      let done = 0;
      let afterId: string | null = null;
      while (!this.stopped) {
        let next: Awaited<ReturnType<SegmentsService['recomputeNext']>>;
        try {
          next = await this.segments.recomputeNext(afterId);
        } catch (err) {
          // recomputeNext failed on the segment after `afterId`: find its id and move past it.
          const row = await this.repository.nextAcrossProjects(afterId);
          this.log.warn({ err, segmentId: row?.id }, 'segment recompute failed');
          if (!row) break;
          afterId = row.id;
          continue;
        }
        if (!next) break;
        afterId = next.id;
        done++;
      }
      return done;
    });
  }
}
