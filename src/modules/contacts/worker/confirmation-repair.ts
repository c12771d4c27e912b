import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { PeriodicWorker } from '../../../platform/queues/periodic-worker';
import { DoubleOptInService } from '../consent/double-opt-in.service';

/**
 * Double opt-in's repair pass (docs/consent.md): every `CONFIRMATION_REPAIR_INTERVAL_MS` (30 s) in
 * processes that run workers, the confirmation emails that a crash between a sign-up's commit and
 * its email left owed are written. Safe in several processes at once: each contact's email is
 * written in the transaction that locks the row and clears its marker.
 */
@Injectable()
export class ConfirmationRepair extends PeriodicWorker {
  private readonly log = logger('confirmation-repair');

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly optIns: DoubleOptInService,
  ) {
    super(config, 'confirmation-repair', config.email.confirmationRepairIntervalMs);
  }

  protected async round(): Promise<void> {
    const written = await this.optIns.writeOwedConfirmations((err, contactId) => this.log.warn({ err, contactId }, 'could not write an owed confirmation email'));
    if (written) this.log.info({ written }, 'wrote owed confirmation emails');
  }
}
