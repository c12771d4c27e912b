import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { PeriodicRound } from '../../../platform/queues/periodic-round';
import { CampaignEngine } from '../engine/campaign-engine';

const TICK_INTERVAL_MS = 250;

/**
 * The campaign engine's tick, every 250 ms in processes that run workers, one round at a time;
 * a round that a campaign's time budget alone stopped is followed at once by the next. On module
 * destroy, the round under way stops between batches and is waited for.
 */
@Injectable()
export class CampaignTick implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = logger('campaign-engine');
  private readonly rounds = new PeriodicRound(
    () => this.round(),
    (err) => this.log.warn({ err }, 'campaign tick failed'),
  );

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly engine: CampaignEngine,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.start(this.config, TICK_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.rounds.stop();
  }

  /** A tick now (or the one under way). */
  tick(): Promise<void> {
    return this.rounds.runNow();
  }

  private async round(): Promise<void> {
    const again = await this.engine.tick(() => this.rounds.stopped);
    // A campaign stopped only by the time budget goes on at once, not at the next interval.
    if (again && !this.rounds.stopped) setImmediate(() => void this.rounds.runNow());
  }
}
