import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { SnsMessagesRepository } from '../inbound/sns-messages.repository';

const HOUR_MS = 60 * 60_000;
/** Replays older than SNS's longest retry window are no risk; the table stays small. */
const KEPT_DAYS = 30;

/** Drops handled SNS MessageIds past `KEPT_DAYS`, every hour in processes that run workers. */
@Injectable()
export class SnsMessagesPurge extends PeriodicWorker {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly messages: SnsMessagesRepository,
  ) {
    super(config, 'sns', HOUR_MS);
  }

  protected round(): Promise<unknown> {
    return this.messages.purgeExpired(KEPT_DAYS);
  }
}
