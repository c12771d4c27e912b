import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { StatementRunner } from '../../../platform/database/statement-runner';
import type { StoredAttachment } from '../entities/email-content.entity';
import type { EmailType } from '../entities/email.entity';

export interface NewEmailContent {
  projectId: string | null;
  templateId: string | null;
  subject: string;
  body: string;
  /** False for final (non-Liquid) subject and HTML, as account mail arrives. */
  liquid?: boolean;
  text?: string | null;
  fromName: string | null;
  replyTo: string | null;
  headers?: Record<string, string>;
  attachments?: StoredAttachment[];
}

export interface NewEmailRecipient {
  contactId: string | null;
  toAddress: string;
  toName: string | null;
  /** Render-time variables; null makes the pipeline read the contact's data when it sends. */
  variables: Record<string, unknown> | null;
}

export interface NewEmails {
  projectId: string | null;
  templateId: string | null;
  campaignId?: string | null;
  type: EmailType;
  fromAddress: string;
  trackOpens: boolean;
  trackClicks: boolean;
}

/**
 * Writes the shared content row and one `queued` email per recipient in one statement (one
 * round trip, a prepared statement through `statements`); returns the new email ids in recipient order.
 */
export async function insertContentAndEmails(
  statements: StatementRunner,
  em: EntityManager,
  c: NewEmailContent,
  e: NewEmails,
  recipients: NewEmailRecipient[],
): Promise<string[]> {
  if (recipients.length === 0) return [];
  const ids = recipients.map(() => randomUUID());
  await statements.run(
    `WITH content AS (
       INSERT INTO email_contents (project_id, template_id, subject, body, liquid, text, from_name, reply_to, headers, attachments)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb)
       RETURNING id
     )
     INSERT INTO emails (id, project_id, contact_id, template_id, campaign_id, content_id, type, from_address,
                         to_address, to_name, variables, track_opens, track_clicks)
     SELECT r.id, $1, r.contact_id, $11, $12, content.id, $13, $14, r.to_address, r.to_name, r.variables, $15, $16
       FROM content, jsonb_to_recordset($17::jsonb) AS r(id uuid, contact_id text, to_address text, to_name text, variables jsonb)`,
    [
      c.projectId,
      c.templateId,
      c.subject,
      c.body,
      c.liquid ?? true,
      c.text ?? null,
      c.fromName,
      c.replyTo,
      JSON.stringify(c.headers ?? {}),
      JSON.stringify(c.attachments ?? []),
      e.templateId,
      e.campaignId ?? null,
      e.type,
      e.fromAddress,
      e.trackOpens,
      e.trackClicks,
      JSON.stringify(
        recipients.map((r, i) => ({ id: ids[i], contact_id: r.contactId, to_address: r.toAddress, to_name: r.toName, variables: r.variables })),
      ),
    ],
    em,
  );
  return ids;
}
