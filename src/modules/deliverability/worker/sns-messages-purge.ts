import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { PeriodicRound } from '../../../platform/queues/periodic-round';
import { SnsMessagesRepository } from '../inbound/sns-messages.repository';

const HOUR_MS = 60 * 60_000;
/** Replays older than SNS's longest retry window are no risk; the table stays small. */
const KEPT_DAYS = 30;

/** Drops handled SNS MessageIds past `KEPT_DAYS`, every hour in processes that run workers. */
@Injectable()
export class SnsMessagesPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = logger('sns');
  private readonly rounds = new PeriodicRound(
    () => this.messages.purgeExpired(KEPT_DAYS),
    (err) => this.log.warn({ err }, 'purging old SNS message ids failed'),
  );

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly messages: SnsMessagesRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.start(this.config, HOUR_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.rounds.stop();
  }

  /** A purge now (or the one under way). */
  purge(): Promise<void> {
    return this.rounds.runNow();
  }
}
