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
  /** The body is markdown, converted to HTML when each message is built. */
  markdown?: boolean;
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

/** One content row and the `queued` emails of its recipients. */
export interface NewContentAndEmails {
  content: NewEmailContent;
  emails: NewEmails;
  recipients: NewEmailRecipient[];
}

/**
 * Every content row and every email row of these requests (one, or send requests sharing a
 * transaction) in one statement of fixed text, prepared once (the rows travel as two JSON
 * parameters). Ids are made here; returns per request its email ids in recipient order (a
 * request without recipients writes nothing and gets `[]`).
 */
export async function insertContentsAndEmails(statements: StatementRunner, em: EntityManager, requests: NewContentAndEmails[]): Promise<string[][]> {
  const contents: Array<Record<string, unknown>> = [];
  const emails: Array<Record<string, unknown>> = [];
  const ids = requests.map(({ content: c, emails: e, recipients }) => {
    if (recipients.length === 0) return [];
    const contentId = randomUUID();
    contents.push({
      id: contentId,
      project_id: c.projectId,
      template_id: c.templateId,
      subject: c.subject,
      body: c.body,
      liquid: c.liquid ?? true,
      markdown: c.markdown ?? false,
      text: c.text ?? null,
      from_name: c.fromName,
      reply_to: c.replyTo,
      headers: c.headers ?? {},
      attachments: c.attachments ?? [],
    });
    return recipients.map((r) => {
      const id = randomUUID();
      emails.push({
        id,
        project_id: e.projectId,
        contact_id: r.contactId,
        template_id: e.templateId,
        campaign_id: e.campaignId ?? null,
        content_id: contentId,
        type: e.type,
        from_address: e.fromAddress,
        to_address: r.toAddress,
        to_name: r.toName,
        variables: r.variables,
        track_opens: e.trackOpens,
        track_clicks: e.trackClicks,
      });
      return id;
    });
  });
  if (emails.length === 0) return ids;
  await statements.run(INSERT_CONTENTS_AND_EMAILS_SQL, [JSON.stringify(contents), JSON.stringify(emails)], em);
  return ids;
}

const INSERT_CONTENTS_AND_EMAILS_SQL = `WITH content AS (
  INSERT INTO email_contents (id, project_id, template_id, subject, body, liquid, markdown, text, from_name, reply_to, headers, attachments)
  SELECT c.id, c.project_id, c.template_id, c.subject, c.body, c.liquid, c.markdown, c.text, c.from_name, c.reply_to, c.headers, c.attachments
    FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, project_id uuid, template_id uuid, subject text, body text, liquid boolean,
                                            markdown boolean, text text, from_name text, reply_to text, headers jsonb, attachments jsonb)
  RETURNING id
)
INSERT INTO emails (id, project_id, contact_id, template_id, campaign_id, content_id, type, from_address,
                    to_address, to_name, variables, track_opens, track_clicks)
SELECT r.id, r.project_id, r.contact_id, r.template_id, r.campaign_id, r.content_id, r.type, r.from_address,
       r.to_address, r.to_name, r.variables, r.track_opens, r.track_clicks
  FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, project_id uuid, contact_id text, template_id uuid, campaign_id uuid, content_id uuid,
                                          type text, from_address text, to_address text, to_name text, variables jsonb,
                                          track_opens boolean, track_clicks boolean)
 WHERE (SELECT count(*) FROM content) >= 0`;
