import type { EmailContentRow } from '../emails.rows';

/** What is kept of an email's content, in a contact's export (its schema: `ContactExportResponse.emails`). */
export interface EmailContentResponse {
  subject: string;
  body: string;
  text: string | null;
  fromName: string | null;
  replyTo: string | null;
  headers: Record<string, string>;
  attachments: Array<{ filename: string; contentType: string | null; disposition: string; size: number }>;
  variables: Record<string, unknown> | null;
}

export function toEmailContentResponse(row: EmailContentRow): EmailContentResponse {
  return { subject: row.subject, body: row.body, text: row.text, fromName: row.from_name, replyTo: row.reply_to, headers: row.headers ?? {}, attachments: row.attachments, variables: row.variables };
}
