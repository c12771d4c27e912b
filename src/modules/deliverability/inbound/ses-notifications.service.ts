import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { logger } from '../../../platform/logging/logger';
import { BillingLimitExceeded, BillingService } from '../../billing';
import { ContactsService } from '../../contacts';
import { DomainsService } from '../../domains';
import { EventsService } from '../../events';
import { DeliveryFeedbackService } from './delivery-feedback.service';
import type { EmailEventRow } from '../../emails';
import { bareAddress, SesNotification, sesKind, sesTime } from './ses-notification';

const log = logger('ses-notifications');

/** Applies one SES notification (Bounce, Complaint, Delivery, Received) delivered through SNS. */
@Injectable()
export class SesNotificationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly feedback: DeliveryFeedbackService,
    private readonly contacts: ContactsService,
    private readonly events: EventsService,
    private readonly billing: BillingService,
    private readonly domains: DomainsService,
  ) {}

  async handle(notification: SesNotification): Promise<void> {
    const kind = sesKind(notification);
    switch (kind) {
      case 'Bounce':
        return this.bounce(notification);
      case 'Complaint':
        return this.complaint(notification);
      case 'Delivery':
        return this.delivery(notification);
      case 'Received':
        return this.received(notification);
      default:
        log.info({ kind }, 'ignoring an SES notification of an unhandled type');
    }
  }

  private async bounce(n: SesNotification): Promise<void> {
    const recipients = (n.bounce?.bouncedRecipients ?? []).map((r) => r.emailAddress ?? '');
    const bounceType = n.bounce?.bounceType === 'Permanent' ? 'Permanent' : 'Transient';
    const diagnosticCode = n.bounce?.bouncedRecipients?.find((r) => r.diagnosticCode)?.diagnosticCode;
    for (const email of await this.emailsFor(n, recipients)) {
      await this.feedback.bounced(email, bounceType, {
        at: sesTime(n.bounce?.timestamp),
        source: 'sns',
        error: diagnosticCode ?? `${bounceType} bounce${n.bounce?.bounceSubType ? ` (${n.bounce.bounceSubType})` : ''}`,
        data: { bounceSubType: n.bounce?.bounceSubType ?? null, ...(diagnosticCode ? { diagnosticCode } : {}) },
      });
    }
  }

  private async complaint(n: SesNotification): Promise<void> {
    const recipients = (n.complaint?.complainedRecipients ?? []).map((r) => r.emailAddress ?? '');
    for (const email of await this.emailsFor(n, recipients)) {
      await this.feedback.complained(email, {
        at: sesTime(n.complaint?.timestamp),
        source: 'sns',
        data: { feedbackType: n.complaint?.complaintFeedbackType ?? null },
      });
    }
  }

  private async delivery(n: SesNotification): Promise<void> {
    for (const email of await this.emailsFor(n, n.delivery?.recipients ?? [])) {
      await this.feedback.delivered(email, { at: sesTime(n.delivery?.timestamp), source: 'sns' });
    }
  }

  /**
   * Inbound mail: one `email.received` event per project owning a recipient's domain, counted
   * against the project's monthly inbound limit in the same transaction (over it, the project
   * does not get the event; the others still do).
   */
  private async received(n: SesNotification): Promise<void> {
    const recipients = (n.receipt?.recipients ?? n.mail?.destination ?? []).map(bareAddress);
    const from = n.mail?.source ? bareAddress(n.mail.source) : (n.mail?.commonHeaders?.from?.[0] ?? null);
    const byProject = await this.domains.projectsReceiving(recipients);
    if (byProject.size === 0) log.info({ recipients }, 'inbound mail for no known domain');
    for (const [projectId, to] of byProject) {
      const contact = from ? await this.contacts.findByEmail(projectId, bareAddress(from)) : null;
      const data = {
        emailId: null,
        subject: n.mail?.commonHeaders?.subject ?? null,
        from,
        to,
        templateId: null,
        campaignId: null,
        messageId: n.mail?.messageId ?? null,
        spamVerdict: n.receipt?.spamVerdict?.status ?? null,
        virusVerdict: n.receipt?.virusVerdict?.status ?? null,
      };
      try {
        await this.dataSource.transaction(async (em) => {
          await this.billing.consume(em, projectId, 'inbound', 1);
          await this.events.record(projectId, { contactId: contact?.id ?? null, name: 'email.received', data }, em);
        });
      } catch (err) {
        if (!(err instanceof BillingLimitExceeded)) throw err;
        log.warn({ projectId, messageId: n.mail?.messageId }, 'inbound mail over the monthly inbound limit: not recorded');
      }
    }
  }

  /** Our rows for the SES message: those addressed to the named recipients, else all of them. */
  private async emailsFor(n: SesNotification, recipients: string[]): Promise<EmailEventRow[]> {
    const rows = await this.feedback.findByMessageIds([n.mail?.messageId ?? ''], [n.mail?.commonHeaders?.messageId ?? '']);
    if (rows.length === 0) log.info({ messageId: n.mail?.messageId }, 'SES notification for an unknown message');
    const wanted = new Set(recipients.filter(Boolean).map(bareAddress));
    const matching = rows.filter((row) => wanted.has(row.to_address.toLowerCase()));
    return matching.length > 0 ? matching : rows;
  }
}
