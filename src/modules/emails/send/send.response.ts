import { ApiProperty } from '@nestjs/swagger';
import type { RecipientSkipReason } from '../recipient-policy';

/**
 * Reasons a recipient of a send got no email (wire values): the recipient policy's. `invalid_email`
 * cannot occur here in practice (addresses are validated first, more strictly), so the document lists two.
 */
export type SkipReason = RecipientSkipReason;

export class SkippedRecipient {
  @ApiProperty({ description: 'Recipient address', type: String })
  to!: string;
  @ApiProperty({ description: "unsubscribed (marketing email to an unsubscribed contact) or suppressed (the address bounced or complained)", enum: ["unsubscribed", "suppressed"] })
  reason!: SkipReason;
}

/** The spec's send result; `skipped` is always present (decisions / interfaces). */
export class SendResult {
  @ApiProperty({ description: "One item per recipient sent to: the email id and the contact", type: "array", items: { type: "object", properties: { email: { type: "string", description: "Email id (UUID)" }, contact: { type: "object", properties: { id: { type: "string" }, email: { type: "string" } } } } } })
  emails!: Array<{ contact: { id: string; email: string }; email: string }>;
  @ApiProperty({ description: "Recipients not sent to, with the reason", type: () => [SkippedRecipient] })
  skipped!: SkippedRecipient[];
  @ApiProperty({ description: 'When the request was accepted', type: String })
  timestamp!: string;
}
