import { ApiProperty } from '@nestjs/swagger';
import type { InboundMessage } from '../entities/inbound-message.entity';

const VERDICT = 'pass, fail, softfail, neutral, none, temperror, permerror or policy';

/** A received message's record (`GET /inbound/:id`); its bytes are `GET /inbound/:id/raw`. */
export class InboundMessageResponse {
  @ApiProperty({ description: 'Identifier (UUID), as in the `email.received` event\'s `data.inboundId`', type: String })
  id!: string;
  @ApiProperty({ description: 'The sender\'s contact (UUID); null when the sender had no usable address or the contact was deleted', type: String, nullable: true })
  contactId!: string | null;
  @ApiProperty({ description: 'Envelope sender (MAIL FROM); null for the null sender', type: String, nullable: true })
  mailFrom!: string | null;
  @ApiProperty({ description: 'Envelope recipients on the project\'s domains', type: [String] })
  recipients!: string[];
  @ApiProperty({ description: 'Address of the From header', type: String, nullable: true })
  from!: string | null;
  @ApiProperty({ type: String, nullable: true })
  subject!: string | null;
  @ApiProperty({ description: 'The Message-ID header', type: String, nullable: true })
  messageId!: string | null;
  @ApiProperty({ description: 'Size of the raw message in bytes', type: 'integer' })
  size!: number;
  @ApiProperty({ description: `SPF verdict: ${VERDICT}`, type: String })
  spf!: string;
  @ApiProperty({ description: `DKIM verdict: ${VERDICT}`, type: String })
  dkim!: string;
  @ApiProperty({ description: `DMARC verdict: ${VERDICT}`, type: String })
  dmarc!: string;
  @ApiProperty({ description: 'When it was received (ISO 8601)', type: String })
  receivedAt!: string;
}

export function toInboundMessageResponse(row: InboundMessage): InboundMessageResponse {
  return {
    id: row.id,
    contactId: row.contactId,
    mailFrom: row.mailFrom,
    recipients: row.recipients,
    from: row.fromAddress,
    subject: row.subject,
    messageId: row.messageId,
    size: row.size,
    spf: row.spf,
    dkim: row.dkim,
    dmarc: row.dmarc,
    receivedAt: row.receivedAt.toISOString(),
  };
}
