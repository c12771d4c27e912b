import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { logger } from '../../../platform/logging/logger';
import { appMetrics } from '../../../platform/metrics/metrics';
import { EMAIL_TRANSPORT, EmailTransport, EmailReadsRepository, EmailStatusStore, SendTimeBounces, emailEventData, EmailEventRow } from '../../emails';
import { ContactsService } from '../../contacts';
import { EventsService } from '../../events';
import { SecurityService } from '../../projects';
import { SuppressionService } from '../suppression/suppression.service';
import type { SuppressionSource } from '../suppression/suppression.types';
import { isUuid } from '../../../platform/http/parse-uuid.pipe';

const log = logger('feedback');

export type BounceType = 'Permanent' | 'Transient';

export interface FeedbackDetail {
  at?: Date;
  source: SuppressionSource;
  /** Extra event data: `bounceSubType`, `diagnosticCode`, `feedbackType`, … */
  data?: Record<string, unknown>;
  /** Stored in `emails.error` for a permanent bounce. */
  error?: string;
}

/**
 * What recipients' mail servers say about a sent email: bounces, complaints, deliveries. Each
 * outcome is one transaction applied once per email (the status store's column guard), so
 * duplicate notifications are harmless and a failed one leaves nothing behind for its retry.
 */
@Injectable()
export class DeliveryFeedbackService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsService,
    private readonly contacts: ContactsService,
    private readonly suppression: SuppressionService,
    private readonly security: SecurityService,
    private readonly store: EmailStatusStore,
    private readonly reads: EmailReadsRepository,
    @Inject(EMAIL_TRANSPORT) private readonly transport: EmailTransport,
    sendTimeBounces: SendTimeBounces,
  ) {
    sendTimeBounces.register((email) => this.bouncedAtSend(email));
  }

  /**
   * Project emails for a provider's message id (one row per recipient); falls back to our own
   * Message-ID header value, as some notifications only carry that.
   */
  async findByMessageIds(providerIds: string[], headerIds: string[]): Promise<EmailEventRow[]> {
    const provider = [...new Set(providerIds.filter(Boolean))];
    if (provider.length > 0) {
      const rows = await this.reads.findByProviderMessageIdsAnyProject(provider);
      if (rows.length > 0) return rows;
    }
    const headers = [...new Set(headerIds.filter(Boolean).flatMap((id) => [id.replace(/^<|>$/g, ''), `<${id.replace(/^<|>$/g, '')}>`]))];
    if (headers.length === 0) return [];
    return this.reads.findByMessageIdsAnyProject(headers);
  }

  async findById(emailId: string): Promise<EmailEventRow | null> {
    if (!isUuid(emailId)) return null;
    return this.reads.findByIdAnyProject(emailId);
  }

  /**
   * A permanent bounce marks the email bounced, suppresses the address, unsubscribes the contact
   * and re-evaluates the project's reputation, all in one transaction: the status change doubles
   * as the replay guard, so a failure anywhere rolls everything back and SNS's retry redoes it
   * whole. A transient bounce is only an event.
   */
  async bounced(email: EmailEventRow, bounceType: BounceType, detail: FeedbackDetail): Promise<void> {
    const data = { ...emailEventData(email), bounceType, ...detail.data };
    if (bounceType === 'Transient') {
      await this.events.record(email.project_id, { contactId: email.contact_id, name: 'email.bounce', data });
      appMetrics.feedback('bounce', bounceType);
      return;
    }
    const applied = await this.dataSource.transaction(async (em) => {
      if (!(await this.store.markBouncedByFeedback(email.id, detail.at ?? new Date(), detail.error ?? null, em))) return false;
      await this.applyRejection(email, 'bounce', detail.source, em);
      await this.events.record(email.project_id, { contactId: email.contact_id, name: 'email.bounce', data }, em);
      await this.security.evaluate(email.project_id, em);
      return true;
    });
    if (applied) this.count('bounced', 'bounce', bounceType);
  }

  /**
   * The rest of a permanent bounce the pipeline already recorded on the email (an SMTP 5xx at
   * send time): suppression, unsubscription, reputation, in one transaction.
   */
  async bouncedAtSend(email: { id: string; projectId: string | null; contactId: string | null; toAddress: string }): Promise<void> {
    const projectId = email.projectId;
    if (!projectId) return;
    await this.dataSource.transaction(async (em) => {
      await this.applyRejection({ id: email.id, project_id: projectId, contact_id: email.contactId, to_address: email.toAddress }, 'bounce', 'smtp', em);
      await this.security.evaluate(projectId, em);
    });
  }

  /** Like a permanent bounce: one transaction, the status change is the replay guard. */
  async complained(email: EmailEventRow, detail: FeedbackDetail): Promise<void> {
    const applied = await this.dataSource.transaction(async (em) => {
      if (!(await this.store.markComplained(email.id, detail.at ?? new Date(), em))) return false;
      await this.applyRejection(email, 'complaint', detail.source, em);
      await this.events.record(email.project_id, { contactId: email.contact_id, name: 'email.complaint', data: { ...emailEventData(email), ...detail.data } }, em);
      await this.security.evaluate(email.project_id, em);
      return true;
    });
    if (applied) this.count('complained', 'complaint');
  }

  /**
   * A receiving server is still retrying (a DSN with `Action: delayed` or a 4.x.x status): only
   * an `email.delay` event, the email's status and the contact stay as they are.
   */
  async delayed(email: EmailEventRow, detail: FeedbackDetail): Promise<void> {
    await this.events.record(email.project_id, { contactId: email.contact_id, name: 'email.delay', data: { ...emailEventData(email), ...detail.data } });
    appMetrics.feedback('delay');
  }

  /** Delivery never downgrades a later state (a bounce or complaint that arrived first). */
  async delivered(email: EmailEventRow, detail: FeedbackDetail): Promise<void> {
    const applied = await this.dataSource.transaction(async (em) => {
      if (!(await this.store.markDeliveredByFeedback(email.id, detail.at ?? new Date(), em))) return false;
      await this.events.record(email.project_id, { contactId: email.contact_id, name: 'email.delivery', data: { ...emailEventData(email), ...detail.data } }, em);
      return true;
    });
    if (applied) appMetrics.email('delivered', this.transport.kind);
  }

  /** Counted once the feedback's transaction committed (a rolled-back one is redone by the retry). */
  private count(status: 'bounced' | 'complained', kind: 'bounce' | 'complaint', detail?: string): void {
    appMetrics.email(status, this.transport.kind);
    appMetrics.feedback(kind, detail);
  }

  /** Suppresses the address and unsubscribes its contact (a contact deleted since the send is skipped; the suppression holds). */
  private async applyRejection(
    email: Pick<EmailEventRow, 'id' | 'project_id' | 'contact_id' | 'to_address'>,
    reason: 'bounce' | 'complaint',
    source: SuppressionSource,
    em: EntityManager,
  ): Promise<void> {
    await this.suppression.add(email.project_id, email.to_address, reason, source, em);
    if (!email.contact_id) return;
    const result = await this.contacts.setSubscribedMany(email.project_id, [email.contact_id], false, { reason, source: 'system' }, em);
    if (result.notFound.length > 0) log.info({ emailId: email.id }, `the contact of a ${reason} email no longer exists`);
  }
}
