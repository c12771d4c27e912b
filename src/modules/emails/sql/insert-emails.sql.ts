import { Fragment, raw, sql } from '../../../platform/database/sql-fragment';
import { uuidv7 } from '../../../platform/database/uuidv7';
import type { StoredAttachment } from '../entities/email-content.entity';
import type { EmailType } from '../entities/email.entity';
import { countHandedInSql } from '../../domains';

/**
 * The one `INSERT INTO email_contents` and the one `INSERT INTO emails` of the code base: every
 * writer (recipients in hand as JSON rows, an audience as a SELECT over contacts) hands its rows
 * to these builders, in these columns' order.
 */
const CONTENT_COLUMNS = 'id, project_id, template_id, subject, body, liquid, markdown, text, from_name, reply_to, headers, attachments, topic_id, audience';
const EMAIL_COLUMNS = 'id, project_id, contact_id, template_id, campaign_id, workflow_execution_id, content_id, type, from_address, to_address, to_name, variables, status, error, track_opens, track_clicks, source';

/** `INSERT INTO email_contents` of `rows`, a SELECT of `CONTENT_COLUMNS` in order. */
export const insertContentsSql = (rows: Fragment): Fragment => sql`INSERT INTO email_contents (${raw(CONTENT_COLUMNS)}) ${rows}`;

/**
 * `INSERT INTO emails` of `rows`, a SELECT of `EMAIL_COLUMNS` in order (status `queued`, or `skipped` with its reason in `error`),
 * then `variant` when `withVariant` (a campaign's audience batches).
 */
export const insertEmailsSql = (rows: Fragment, withVariant = false): Fragment => sql`INSERT INTO emails (${raw(EMAIL_COLUMNS)}${raw(withVariant ? ', variant' : '')}) ${rows}`;

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
  /** The topic whose List-Unsubscribe the MARKETING mail carries (a campaign's). */
  topicId?: string | null;
  /** Held by an audience (a campaign or A/B variant) rather than by its emails: retention never deletes it with their expired content. */
  audience?: boolean;
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
  /** The workflow execution whose SEND_EMAIL step wrote it. */
  workflowExecutionId?: string | null;
  type: EmailType;
  fromAddress: string;
  trackOpens: boolean;
  trackClicks: boolean;
  /** `smtp` for the submission relay's emails; absent (null) otherwise. */
  source?: string | null;
}

/** One content row and the `queued` emails of its recipients. */
export interface NewContentAndEmails {
  content: NewEmailContent;
  emails: NewEmails;
  recipients: NewEmailRecipient[];
}

/** Content rows from one JSON parameter (`contentRow`s). */
export const CONTENT_ROWS_SQL = insertContentsSql(
  raw(`SELECT c.id, c.project_id, c.template_id, c.subject, c.body, c.liquid, c.markdown, c.text, c.from_name, c.reply_to, c.headers, c.attachments, c.topic_id, c.audience
    FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, project_id uuid, template_id uuid, subject text, body text, liquid boolean,
                                            markdown boolean, text text, from_name text, reply_to text, headers jsonb, attachments jsonb, topic_id uuid, audience boolean)`),
).text;

/**
 * Content rows and their email rows in one statement of fixed text, prepared once (the rows travel as two JSON parameters).
 * A warming domain's counter takes the emails in the same statement; workflow mail is not counted
 * here, the warm-up books it (`WarmupLedger.book`), as it may be held.
 */
export const INSERT_CONTENTS_AND_EMAILS_SQL = `WITH content AS (${CONTENT_ROWS_SQL} RETURNING id), counted AS (
${countHandedInSql(`jsonb_to_recordset($2::jsonb) AS r(project_id uuid, from_address text, workflow_execution_id uuid)`, 'r.workflow_execution_id IS NULL')}
)
${
  insertEmailsSql(
    raw(`SELECT r.id, r.project_id, r.contact_id, r.template_id, r.campaign_id, r.workflow_execution_id, r.content_id, r.type, r.from_address,
       r.to_address, r.to_name, r.variables, 'queued', NULL, r.track_opens, r.track_clicks, r.source
  FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, project_id uuid, contact_id text, template_id uuid, campaign_id uuid, workflow_execution_id uuid, content_id uuid,
                                          type text, from_address text, to_address text, to_name text, variables jsonb,
                                          track_opens boolean, track_clicks boolean, source text)
 WHERE (SELECT count(*) FROM content) >= 0`),
  ).text
}`;

/** A content row as `CONTENT_ROWS_SQL` reads it, under a new id. */
export function contentRow(id: string, c: NewEmailContent): Record<string, unknown> {
  return {
    id,
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
    topic_id: c.topicId ?? null,
    audience: c.audience ?? false,
  };
}

/**
 * The two JSON parameters of `INSERT_CONTENTS_AND_EMAILS_SQL` for these requests (one, or send
 * requests sharing a transaction), and per request its new email ids in recipient order (a
 * request without recipients writes nothing and gets `[]`).
 */
export function contentsAndEmailsRows(requests: NewContentAndEmails[]): { ids: string[][]; contents: Array<Record<string, unknown>>; emails: Array<Record<string, unknown>> } {
  const contents: Array<Record<string, unknown>> = [];
  const emails: Array<Record<string, unknown>> = [];
  const ids = requests.map(({ content: c, emails: e, recipients }) => {
    if (recipients.length === 0) return [];
    const contentId = uuidv7();
    contents.push(contentRow(contentId, c));
    return recipients.map((r) => {
      const id = uuidv7();
      emails.push({
        id,
        project_id: e.projectId,
        contact_id: r.contactId,
        template_id: e.templateId,
        campaign_id: e.campaignId ?? null,
        workflow_execution_id: e.workflowExecutionId ?? null,
        content_id: contentId,
        type: e.type,
        from_address: e.fromAddress,
        to_address: r.toAddress,
        to_name: r.toName,
        variables: r.variables,
        track_opens: e.trackOpens,
        track_clicks: e.trackClicks,
        source: e.source ?? null,
      });
      return id;
    });
  });
  return { ids, contents, emails };
}
