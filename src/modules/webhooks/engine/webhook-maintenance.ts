import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { SystemMailer } from '../../../platform/mail/system-mailer';
import { UsersService } from '../../auth';
import { ProjectsService } from '../../projects';
import { DeliveriesStore } from '../deliveries.store';
import { WebhooksRepository } from '../webhooks.repository';
import { endpointDisabledMail } from './disabled-mail';
import { WebhookQueue } from './webhook-queue';

/** docs/decisions.md#event-webhooks: the log is kept 30 days. */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;
const PURGE_EVERY_MS = 3600_000;
const PURGE_BATCH = 5_000;
const OVERDUE_BATCH = 1_000;

/** The sweep's work (worker/webhook-sweeper.ts drives it). */
@Injectable()
export class WebhookMaintenance {
  private readonly log = logger('webhook-maintenance');
  private lastPurgeAt = 0;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly endpoints: WebhooksRepository,
    private readonly store: DeliveriesStore,
    private readonly queue: WebhookQueue,
    private readonly projects: ProjectsService,
    private readonly users: UsersService,
    private readonly mailer: SystemMailer,
  ) {}

  /** Pending deliveries of enabled endpoints overdue by more than the grace, queued again; how many. */
  async requeueOverdue(): Promise<number> {
    const overdue = await this.store.overdueAcrossProjects(new Date(Date.now() - this.config.webhooks.sweepGraceMs), OVERDUE_BATCH);
    await this.queue.enqueueOverdue(overdue);
    return overdue.length;
  }

  /**
   * Endpoints with no success for the auto-disable window while their attempts failed are
   * disabled FAILING, their pending deliveries end failed, and the project's OWNER and ADMINs get
   * one email each (the statement hands each endpoint to one process only).
   */
  async disableFailing(): Promise<number> {
    const disabled = await this.endpoints.disableFailingAcrossProjects(new Date(Date.now() - this.config.webhooks.autoDisableAfterMs));
    if (disabled.length === 0) return 0;
    await this.store.failPendingOfEndpoints(
      disabled.map((e) => e.id),
      'endpoint disabled: no success for too long',
    );
    for (const endpoint of disabled) {
      try {
        const managers = await this.users.emailsOf(await this.projects.managerIds(endpoint.project_id));
        const project = await this.projects.findById(endpoint.project_id);
        for (const to of managers.values()) {
          await this.mailer.send(endpointDisabledMail(to, { projectName: project.name, url: endpoint.url, failingSince: endpoint.failing_since, dashboardUrl: `${this.config.publicUrl}/app/` }));
        }
      } catch (err) {
        this.log.error({ err, endpointId: endpoint.id }, 'could not tell the owners that a webhook endpoint was disabled');
      }
    }
    return disabled.length;
  }

  /** Deliveries (and their attempts) older than 30 days, in batches, once an hour per process. */
  async purgeExpiredHourly(stopped: () => boolean): Promise<number> {
    if (Date.now() - this.lastPurgeAt < PURGE_EVERY_MS) return 0;
    this.lastPurgeAt = Date.now();
    const before = new Date(Date.now() - DELIVERY_RETENTION_MS);
    let purged = 0;
    for (let n = PURGE_BATCH; n === PURGE_BATCH && !stopped(); ) {
      n = await this.store.purgeExpiredAcrossProjects(before, PURGE_BATCH);
      purged += n;
    }
    return purged;
  }
}
