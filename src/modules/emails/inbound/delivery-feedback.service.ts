import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { logger } from '../../../platform/logging/logger';
import { ContactsService } from '../../contacts/contacts.service';
import { EventsService } from '../../events/events.service';
import { SecurityService } from '../../projects/security.service';
import { SuppressionService } from '../suppression/suppression.service';
import type { SuppressionSource } from '../suppression/suppression.types';
import { EMAIL_EVENT_COLUMNS, emailEventData, EmailEventRow } from './email-event-data';

const log = logger('feedback');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
 * outcome is applied once per email (the column guard), so duplicate notifications are harmless.
 */
@Injectable()
export class DeliveryFeedbackService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsService,
    private readonly contacts: ContactsService,
    private readonly suppression: SuppressionService,
    private readonly security: SecurityService,
  ) {}

  /**
   * Project emails for a provider's message id (one row per recipient); falls back to our own
   * Message-ID header value, as some notifications only carry that.
   */
  async findByMessageIds(providerIds: string[], headerIds: string[]): Promise<EmailEventRow[]> {
    const provider = [...new Set(providerIds.filter(Boolean))];
    if (provider.length > 0) {
      const rows: EmailEventRow[] = await this.dataSource.query(
        `SELECT ${EMAIL_EVENT_COLUMNS} FROM emails WHERE provider_message_id = ANY($1) AND project_id IS NOT NULL`,
        [provider],
      );
      if (rows.length > 0) return rows;
    }
    const headers = [...new Set(headerIds.filter(Boolean).flatMap((id) => [id.replace(/^<|>$/g, ''), `<${id.replace(/^<|>$/g, '')}>`]))];
    if (headers.length === 0) return [];
    return this.dataSource.query(`SELECT ${EMAIL_EVENT_COLUMNS} FROM emails WHERE message_id = ANY($1) AND project_id IS NOT NULL`, [headers]);
  }

  async findById(emailId: string): Promise<EmailEventRow | null> {
    if (!UUID.test(emailId)) return null;
    const rows: EmailEventRow[] = await this.dataSource.query(`SELECT ${EMAIL_EVENT_COLUMNS} FROM emails WHERE id = $1 AND project_id IS NOT NULL`, [emailId]);
    return rows[0] ?? null;
  }

  /**
   * A permanent bounce marks the email bounced, suppresses the address, unsubscribes the contact
   * and re-evaluates the project's reputation; a transient one is only an event.
   */
  async bounced(email: EmailEventRow, bounceType: BounceType, detail: FeedbackDetail): Promise<void> {
    const data = { ...emailEventData(email), bounceType, ...detail.data };
    if (bounceType === 'Transient') {
      await this.events.record(email.project_id, { contactId: email.contact_id, name: 'email.bounce', data });
      return;
    }
    const [changed] = (await this.dataSource.query(
      `UPDATE emails SET status = 'bounced', bounced_at = $2, bounce_type = 'Permanent', error = COALESCE($3, error)
        WHERE id = $1 AND bounced_at IS NULL RETURNING id`,
      [email.id, detail.at ?? new Date(), detail.error ?? null],
    )) as [unknown[], number];
    if (changed.length === 0) return;
    await this.suppression.add(email.project_id, email.to_address, 'bounce', detail.source);
    await this.unsubscribe(email, 'bounce');
    await this.events.record(email.project_id, { contactId: email.contact_id, name: 'email.bounce', data });
    await this.security.evaluate(email.project_id);
  }

  /**
   * The rest of a permanent bounce the pipeline already recorded on the email (an SMTP 5xx at
   * send time): suppression, unsubscription, reputation.
   */
  async bouncedAtSend(email: { id: string; projectId: string | null; contactId: string | null; toAddress: string }): Promise<void> {
    if (!email.projectId) return;
    await this.suppression.add(email.projectId, email.toAddress, 'bounce', 'smtp');
    await this.unsubscribe({ id: email.id, project_id: email.projectId, contact_id: email.contactId }, 'bounce');
    await this.security.evaluate(email.projectId);
  }

  async complained(email: EmailEventRow, detail: FeedbackDetail): Promise<void> {
    const [changed] = (await this.dataSource.query(
      `UPDATE emails SET status = 'complained', complained_at = $2 WHERE id = $1 AND complained_at IS NULL RETURNING id`,
      [email.id, detail.at ?? new Date()],
    )) as [unknown[], number];
    if (changed.length === 0) return;
    await this.suppression.add(email.project_id, email.to_address, 'complaint', detail.source);
    await this.unsubscribe(email, 'complaint');
    await this.events.record(email.project_id, { contactId: email.contact_id, name: 'email.complaint', data: { ...emailEventData(email), ...detail.data } });
    await this.security.evaluate(email.project_id);
  }

  /** Delivery never downgrades a later state (a bounce or complaint that arrived first). */
  async delivered(email: EmailEventRow, detail: FeedbackDetail): Promise<void> {
    const [changed] = (await this.dataSource.query(
      `UPDATE emails SET delivered_at = $2, status = CASE WHEN status IN ('queued', 'sending', 'sent') THEN 'delivered' ELSE status END
        WHERE id = $1 AND delivered_at IS NULL RETURNING id`,
      [email.id, detail.at ?? new Date()],
    )) as [unknown[], number];
    if (changed.length === 0) return;
    await this.events.record(email.project_id, { contactId: email.contact_id, name: 'email.delivery', data: { ...emailEventData(email), ...detail.data } });
  }

  private async unsubscribe(email: Pick<EmailEventRow, 'id' | 'project_id' | 'contact_id'>, reason: string): Promise<void> {
    if (!email.contact_id) return;
    try {
      await this.contacts.setSubscribed(email.project_id, email.contact_id, false, reason);
    } catch (error) {
      // The contact may have been deleted since the send; the suppression still holds.
      log.info({ err: error, emailId: email.id }, 'could not unsubscribe the contact of a bounced email');
    }
  }
}
