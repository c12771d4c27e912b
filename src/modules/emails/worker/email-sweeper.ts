import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { TEMPLATE_TYPES } from '../../templates';
import { EmailQueue } from '../engine/email-queue';
import { EmailReadsRepository } from '../email-reads.repository';

const BATCH = 500;

/**
 * The database is the source of truth: an email left `queued` without a job (the enqueue after
 * commit failed, or queue data was lost) or `sending` past its lease is enqueued again. Single
 * jobs have the email id as job id, so an email whose single job still exists is not enqueued
 * twice; one still waiting inside a grouped job may be, and then whichever job claims it first
 * sends it (the other finds it no longer `queued`). Runs every `EMAIL_SWEEP_INTERVAL_MS` in
 * processes that run workers.
 */
@Injectable()
export class EmailSweeper extends PeriodicWorker {
  private readonly log = logger('email-sweeper');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly reads: EmailReadsRepository,
    private readonly queue: EmailQueue,
  ) {
    super(config, 'email-sweeper', config.email.sweepIntervalMs);
  }

  protected async round(): Promise<void> {
    const stranded = await this.reads.findStranded(BATCH, this.config.email.strandedAfterMs);
    // Concurrent calls share one addBulk (EmailQueue batches them).
    await Promise.all(TEMPLATE_TYPES.map((type) => this.queue.enqueue(stranded.filter((e) => e.type === type).map((e) => e.id), type)));
    if (stranded.length) this.log.info({ count: stranded.length }, 're-enqueued stranded emails');
  }
}
