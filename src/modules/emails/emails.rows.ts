import type { EmailStatus, EmailType } from './entities/email.entity';

/** The `emails` columns of an `EmailRow` (alias `e`). */
export const EMAIL_ROW_COLUMNS = `e.id, e.status, e.type, e.from_address, e.to_address, e.subject, e.campaign_id, e.template_id, e.contact_id,
  e.workflow_execution_id, e.error, e.bounce_type, e.message_id, e.provider_message_id, e.track_opens, e.track_clicks, e.attempts, e.open_count, e.click_count, e.created_at, e.updated_at, e.sent_at,
  e.delivered_at, e.opened_at, e.clicked_at, e.bounced_at, e.complained_at, e.failed_at`;

/** One email as `EmailsRepository` reads it (`findRow`, `page`); `toEmailResponse` maps it to the API. */
export interface EmailRow {
  id: string;
  status: EmailStatus;
  type: EmailType;
  from_address: string;
  to_address: string;
  subject: string | null;
  campaign_id: string | null;
  template_id: string | null;
  contact_id: string | null;
  workflow_execution_id: string | null;
  error: string | null;
  bounce_type: string | null;
  message_id: string | null;
  provider_message_id: string | null;
  track_opens: boolean;
  track_clicks: boolean;
  attempts: number;
  open_count: number;
  click_count: number;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  clicked_at: Date | null;
  bounced_at: Date | null;
  complained_at: Date | null;
  failed_at: Date | null;
}

/** What `EmailsRepository.contentsOf` reads of an email's content: sources, attachments without bytes, and render values. */
export interface EmailContentRow {
  email_id: string;
  subject: string;
  body: string;
  text: string | null;
  from_name: string | null;
  reply_to: string | null;
  headers: Record<string, string>;
  variables: Record<string, unknown> | null;
  attachments: Array<{ filename: string; contentType: string | null; disposition: string; size: number }>;
}
