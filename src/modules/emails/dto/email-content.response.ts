import { ApiProperty } from '@nestjs/swagger';
import type { EmailContentRow } from '../emails.rows';

class EmailAttachmentSummary {
  @ApiProperty({ type: String }) filename!: string;
  @ApiProperty({ type: String, nullable: true }) contentType!: string | null;
  @ApiProperty({ description: 'attachment or inline', type: String }) disposition!: string;
  @ApiProperty({ description: 'Decoded size in bytes', type: 'integer' }) size!: number;
}

/** What is kept of an email's content: the sources it was rendered from and the values it was rendered with (attachments without their bytes). */
export class EmailContentResponse {
  @ApiProperty({ description: 'Subject source (Liquid) of the send', type: String })
  subject!: string;
  @ApiProperty({ description: 'Body source (Liquid; HTML or markdown) of the send', type: String })
  body!: string;
  @ApiProperty({ description: 'The given plain-text part; null: generated from the HTML', type: String, nullable: true })
  text!: string | null;
  @ApiProperty({ type: String, nullable: true })
  fromName!: string | null;
  @ApiProperty({ type: String, nullable: true })
  replyTo!: string | null;
  @ApiProperty({ description: 'Custom headers as sent', type: 'object', additionalProperties: { type: 'string' } })
  headers!: Record<string, string>;
  @ApiProperty({ type: () => [EmailAttachmentSummary] })
  attachments!: EmailAttachmentSummary[];
  @ApiProperty({ description: 'The values it was rendered with; null: the contact data at send time', type: 'object', additionalProperties: true, nullable: true })
  variables!: Record<string, unknown> | null;
}

export function toEmailContentResponse(row: EmailContentRow): EmailContentResponse {
  return { subject: row.subject, body: row.body, text: row.text, fromName: row.from_name, replyTo: row.reply_to, headers: row.headers ?? {}, attachments: row.attachments, variables: row.variables };
}
