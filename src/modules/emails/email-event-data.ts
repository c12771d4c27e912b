/** Columns every `email.*` event needs, for `RETURNING`/`SELECT` lists over `emails`. */
export const EMAIL_EVENT_COLUMNS = 'id, project_id, contact_id, template_id, campaign_id, type, subject, from_address, to_address, source';

export interface EmailEventRow {
  id: string;
  project_id: string;
  contact_id: string | null;
  template_id: string | null;
  campaign_id: string | null;
  type: string;
  subject: string;
  from_address: string;
  to_address: string;
  source: string | null;
}

/** The payload docs/decisions.md#events fixes for every `email.*` event; callers add `link`, `bounceType`, … */
export function emailEventData(email: EmailEventRow): Record<string, unknown> {
  return { emailId: email.id, subject: email.subject, from: email.from_address, templateId: email.template_id, campaignId: email.campaign_id, ...emailSource(email.source) };
}

/** `source` (e.g. `smtp` for the submission relay) when the email has one; API emails carry none. */
export const emailSource = (source: string | null | undefined): { source?: string } => (source ? { source } : {});
