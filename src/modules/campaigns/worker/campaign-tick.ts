import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { CampaignEngine } from '../engine/campaign-engine';

const TICK_INTERVAL_MS = 250;

/**
 * The campaign engine's tick, every 250 ms in processes that run workers, one round at a time;
 * a round that a campaign's time budget alone stopped is followed at once by the next. On module
 * destroy, the round under way stops between batches and is waited for.
 */
@Injectable()
export class CampaignTick extends PeriodicWorker {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly engine: CampaignEngine,
  ) {
    super(config, 'campaign-engine', TICK_INTERVAL_MS);
  }

  protected async round(): Promise<void> {
    const again = await this.engine.tick(() => this.stopped);
    // A campaign stopped only by the time budget goes on at once, not at the next interval.
    if (again && !this.stopped) setImmediate(() => void this.runNow());
  }
}
