import { ApiProperty } from '@nestjs/swagger';
import { EMAIL_STATUSES, EmailStatus, EmailType } from '../entities/email.entity';
import type { EmailRow } from '../emails.rows';
import { EmailContentResponse } from './email-content.response';

export class EmailEventResponse {
  @ApiProperty({ description: 'email.sent, email.delivery, email.open, email.click, email.bounce or email.complaint', type: String })
  name!: string;
  @ApiProperty({ description: 'When it happened (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'The event data as stored (emailId, subject, from, templateId, campaignId; email.click adds link, email.bounce bounceType)', type: 'object', additionalProperties: true })
  data!: Record<string, unknown>;
}

const at = (description: string) => ApiProperty({ description: `${description} (ISO 8601); null until then`, type: String, nullable: true });

/** One recipient message and where it is in its lifecycle. */
export class EmailResponse {
  @ApiProperty({ description: 'Identifier (UUID), as in `/v1/send`\'s answer and the events\' `data.emailId`', type: String })
  id!: string;
  @ApiProperty({ description: 'queued → sending → sent | delivered | bounced | complained | failed; skipped (never sent: see skipReason); uncertain (interrupted while being handed to the transport)', enum: EMAIL_STATUSES })
  status!: EmailStatus;
  @ApiProperty({ description: 'TRANSACTIONAL, MARKETING or HEADLESS', type: String })
  type!: EmailType;
  @ApiProperty({ description: 'Sender address', type: String })
  from!: string;
  @ApiProperty({ description: 'Recipient address', type: String })
  to!: string;
  @ApiProperty({ description: 'The rendered subject; null until the message is built', type: String, nullable: true })
  subject!: string | null;
  @ApiProperty({ description: 'Campaign (UUID) of a campaign email', type: String, nullable: true })
  campaignId!: string | null;
  @ApiProperty({ description: 'Template (UUID) it was made from', type: String, nullable: true })
  templateId!: string | null;
  @ApiProperty({ description: 'Recipient contact; null once the contact is deleted', type: String, nullable: true })
  contactId!: string | null;
  @ApiProperty({ description: 'Workflow execution (UUID) whose SEND_EMAIL step queued it', type: String, nullable: true })
  workflowExecutionId!: string | null;
  @ApiProperty({ description: 'Why sending failed (or the last temporary failure while it is retried)', type: String, nullable: true })
  error!: string | null;
  @ApiProperty({ description: 'Why a skipped email was not sent: suppressed, unsubscribed, project_disabled, render_error, …', type: String, nullable: true })
  skipReason!: string | null;
  @ApiProperty({ description: 'Permanent or Transient, on a bounce', type: String, nullable: true })
  bounceType!: string | null;
  @ApiProperty({ description: 'The Message-ID header, `<id@sender-domain>`; null until the message is built', type: String, nullable: true })
  messageId!: string | null;
  @ApiProperty({ description: "The transport's id for the message (SES MessageId, the SMTP server's answer); null until handed over", type: String, nullable: true })
  providerMessageId!: string | null;
  @ApiProperty({ description: 'Whether opens are tracked (a pixel is added)', type: Boolean })
  trackOpens!: boolean;
  @ApiProperty({ description: 'Whether clicks are tracked (links are rewritten)', type: Boolean })
  trackClicks!: boolean;
  @ApiProperty({ description: 'Hand-over attempts so far', type: 'integer' })
  attempts!: number;
  @ApiProperty({ description: 'Opens recorded', type: 'integer' })
  openCount!: number;
  @ApiProperty({ description: 'Clicks recorded', type: 'integer' })
  clickCount!: number;
  @ApiProperty({ description: 'When it was queued (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'Last change of the record (ISO 8601)', type: String })
  updatedAt!: string;
  @at('Handed to the transport') sentAt!: string | null;
  @at('Delivery confirmed') deliveredAt!: string | null;
  @at('First open') openedAt!: string | null;
  @at('First click') clickedAt!: string | null;
  @at('Bounced') bouncedAt!: string | null;
  @at('Complaint received') complainedAt!: string | null;
  @at('Failed for good') failedAt!: string | null;
}

export class EmailDetailResponse extends EmailResponse {
  @ApiProperty({ description: 'Its email.* events, oldest first', type: () => [EmailEventResponse] })
  events!: EmailEventResponse[];
  @ApiProperty({
    type: () => EmailContentResponse,
    nullable: true,
    description: "What is kept of its content; null once past the project's retention.emailContentDays (see contentExpiredAt), or when it has none",
  })
  content!: EmailContentResponse | null;
  @ApiProperty({ description: "When its content expired under the project's retention (ISO 8601); null while it is kept", type: String, nullable: true })
  contentExpiredAt!: string | null;
}

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());

export function toEmailResponse(row: EmailRow): EmailResponse {
  const skipped = row.status === 'skipped';
  return {
    id: row.id,
    status: row.status,
    type: row.type,
    from: row.from_address,
    to: row.to_address,
    subject: row.subject,
    campaignId: row.campaign_id,
    templateId: row.template_id,
    contactId: row.contact_id,
    workflowExecutionId: row.workflow_execution_id,
    // A skipped email's `error` column holds why it was skipped.
    error: skipped ? null : row.error,
    skipReason: skipped ? row.error : null,
    bounceType: row.bounce_type,
    messageId: row.message_id,
    providerMessageId: row.provider_message_id,
    trackOpens: row.track_opens,
    trackClicks: row.track_clicks,
    attempts: row.attempts,
    openCount: row.open_count,
    clickCount: row.click_count,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    sentAt: iso(row.sent_at),
    deliveredAt: iso(row.delivered_at),
    openedAt: iso(row.opened_at),
    clickedAt: iso(row.clicked_at),
    bouncedAt: iso(row.bounced_at),
    complainedAt: iso(row.complained_at),
    failedAt: iso(row.failed_at),
  };
}
