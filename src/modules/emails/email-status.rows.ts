import type { StoredAttachment } from './entities/email-content.entity';
import type { EmailStatus, EmailType } from './entities/email.entity';
import { handOverFacts, HandOverRow, RecipientFacts } from './recipient-policy';

/** The email row joined with its content: everything the pipeline needs in one read. */
export interface LoadedEmail {
  id: string;
  projectId: string | null;
  contactId: string | null;
  templateId: string | null;
  campaignId: string | null;
  type: EmailType;
  fromAddress: string;
  toAddress: string;
  toName: string | null;
  variables: Record<string, unknown> | null;
  status: EmailStatus;
  /** When the email was queued (the hand-over latency metric's start). */
  queuedAt: Date;
  leaseActive: boolean;
  /** Held by a warm-up cap until `not_before` (docs/delivery-control.md): not sent now, the sweep enqueues it once due. */
  held: boolean;
  trackOpens: boolean;
  trackClicks: boolean;
  /** `smtp` for the submission relay's emails, else null (see email-event-data.ts, `emailSource`). */
  source: string | null;
  /** The recipient's state when loaded, for the hand-over re-check (`skipReason`); consent is read for SUBSCRIPTION_TYPES only. */
  recipient: RecipientFacts;
  content: {
    subject: string;
    body: string;
    liquid: boolean;
    markdown: boolean;
    text: string | null;
    fromName: string | null;
    replyTo: string | null;
    headers: Record<string, string>;
    attachments: StoredAttachment[];
    /** A campaign's topic: the List-Unsubscribe of its MARKETING mail leaves that topic. */
    topicId: string | null;
  } | null;
}

/** One row of the pipeline's load (`EmailStatusStore.load`): the email and its content's columns, prefixed `c_`. */
export interface LoadedRow extends HandOverRow {
  id: string;
  held: boolean;
  created_at: Date;
  project_id: string | null;
  contact_id: string | null;
  template_id: string | null;
  campaign_id: string | null;
  type: EmailType;
  from_address: string;
  to_address: string;
  to_name: string | null;
  variables: Record<string, unknown> | null;
  status: EmailStatus;
  lease_active: boolean;
  track_opens: boolean;
  track_clicks: boolean;
  source: string | null;
  content_id: string | null;
  c_subject: string;
  c_body: string;
  c_liquid: boolean;
  c_markdown: boolean;
  c_text: string | null;
  c_from_name: string | null;
  c_reply_to: string | null;
  c_headers: Record<string, string>;
  c_topic_id: string | null;
  c_attachments: StoredAttachment[];
}

export function toLoaded(r: LoadedRow): LoadedEmail {
  return {
    id: r.id,
    projectId: r.project_id,
    contactId: r.contact_id,
    templateId: r.template_id,
    campaignId: r.campaign_id,
    type: r.type,
    fromAddress: r.from_address,
    toAddress: r.to_address,
    toName: r.to_name,
    variables: r.variables,
    status: r.status,
    queuedAt: new Date(r.created_at),
    leaseActive: r.lease_active,
    held: r.held,
    trackOpens: r.track_opens,
    trackClicks: r.track_clicks,
    source: r.source,
    recipient: handOverFacts(r.to_address, r),
    content: r.content_id
      ? {
          subject: r.c_subject,
          body: r.c_body,
          liquid: r.c_liquid,
          markdown: r.c_markdown,
          text: r.c_text,
          fromName: r.c_from_name,
          replyTo: r.c_reply_to,
          headers: r.c_headers ?? {},
          topicId: r.c_topic_id ?? null,
          attachments: r.c_attachments ?? [],
        }
      : null,
  };
}
