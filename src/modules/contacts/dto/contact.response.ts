import { ApiProperty } from '@nestjs/swagger';
import { ConfirmationState, Contact } from '../entities/contact.entity';

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

/** Row shape of raw `SELECT ${CONTACT_COLUMNS}`; statements that do not select the optional columns leave them undefined (read as empty or null). */
export interface ContactRow {
  id: string;
  project_id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown> | null;
  confirmation?: ConfirmationState | null;
  confirmed_at?: Date | string | null;
  confirmation_sent_at?: Date | string | null;
  topics?: Record<string, boolean> | null;
  snoozed_until?: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const CONTACT_COLUMNS = 'id, project_id, email, subscribed, data, topics, snoozed_until, confirmation, confirmed_at, confirmation_sent_at, created_at, updated_at';

export function fromContactRow(row: ContactRow): Contact {
  return Object.assign(new Contact(), {
    id: row.id,
    projectId: row.project_id,
    email: row.email,
    subscribed: row.subscribed,
    data: row.data ?? {},
    confirmation: row.confirmation ?? null,
    confirmedAt: row.confirmed_at ? new Date(row.confirmed_at) : null,
    confirmationSentAt: row.confirmation_sent_at ? new Date(row.confirmation_sent_at) : null,
    topics: row.topics ?? {},
    snoozedUntil: row.snoozed_until ? new Date(row.snoozed_until) : null,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  });
}
