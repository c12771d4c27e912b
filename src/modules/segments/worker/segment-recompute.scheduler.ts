import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ADVISORY_LOCKS, withTryAdvisoryLock } from '../../../platform/database/advisory-locks';
import { logger } from '../../../platform/logging/logger';
import { PeriodicRound } from '../../../platform/queues/periodic-round';
import { SegmentsRepository } from '../segments.repository';
import { SegmentsService } from '../segments.service';

/** Arbitrary constant shared by every process: one background recompute at a time across the cluster. */

/**
 * Every SEGMENT_RECOMPUTE_INTERVAL_MS (default 5 minutes), in processes that run workers, walks
 * every segment by id: tracked DYNAMIC segments are computed (membership and entry/exit events),
 * the others get a fresh `memberCount`. A PostgreSQL advisory lock lets one process run a round;
 * the others skip it. A segment that fails (e.g. its statement timeout) is logged and skipped.
 */
@Injectable()
export class SegmentRecomputeScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = logger('segment-recompute');
  private readonly rounds = new PeriodicRound(
    () => this.runOnce(),
    (err) => this.log.error({ err }, 'segment recompute round failed'),
  );

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly segments: SegmentsService,
    private readonly repository: SegmentsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.start(this.config, this.config.segments.recomputeIntervalMs);
  }

  onApplicationShutdown(): Promise<void> {
    return this.rounds.stop();
  }

  /** One round over every segment; returns how many were recomputed (0 when another process holds the lock). */
  async runOnce(): Promise<number> {
    return withTryAdvisoryLock(this.dataSource, ADVISORY_LOCKS.segmentRecompute, 0, async () => {
      let done = 0;
      let afterId: string | null = null;
      while (!this.rounds.stopped) {
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
