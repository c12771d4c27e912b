import { ApiProperty } from '@nestjs/swagger';
import type { ConfirmationState, Contact } from '../entities/contact.entity';

export class ContactResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Email address', type: String })
  email!: string;
  @ApiProperty({ description: 'Whether the contact receives marketing email', type: Boolean })
  subscribed!: boolean;
  @ApiProperty({ description: 'Double opt-in: null when never asked, pending while the confirmation email awaits its click, confirmed', type: String, enum: ['pending', 'confirmed'], nullable: true })
  confirmation!: ConfirmationState | null;
  @ApiProperty({ description: 'When the contact confirmed its subscription (ISO 8601), or null', type: String, nullable: true })
  confirmedAt!: string | null;
  @ApiProperty({ description: 'Custom contact data: keys and JSON values (see docs/api.md "Custom data")', type: 'object', additionalProperties: true })
  data!: Record<string, unknown>;
  @ApiProperty({ description: 'Explicit topic choices by topic slug (true: subscribed, false: left); a topic without a choice follows its default', type: 'object', additionalProperties: { type: 'boolean' } })
  topics!: Record<string, boolean>;
  @ApiProperty({ description: 'No marketing email until this time (ISO 8601); null when not snoozed', type: String, nullable: true })
  snoozedUntil!: string | null;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'Last change (ISO 8601)', type: String })
  updatedAt!: string;
}

export function toContactResponse(contact: Contact): ContactResponse {
  return {
    id: contact.id,
    email: contact.email,
    subscribed: contact.subscribed,
    confirmation: contact.confirmation ?? null,
    confirmedAt: contact.confirmedAt ? new Date(contact.confirmedAt).toISOString() : null,
    data: contact.data ?? {},
    topics: contact.topics ?? {},
    snoozedUntil: contact.snoozedUntil ? new Date(contact.snoozedUntil).toISOString() : null,
    createdAt: new Date(contact.createdAt).toISOString(),
    updatedAt: new Date(contact.updatedAt).toISOString(),
  };
}

