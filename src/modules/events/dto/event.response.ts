import { ApiProperty } from '@nestjs/swagger';
import type { EventListRow } from '../events.rows';
export class EventResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Name', type: String })
  name!: string;
  @ApiProperty({ description: 'Contact id (UUID)', type: String, nullable: true })
  contactId!: string | null;
  @ApiProperty({ description: "The contact the event belongs to (null once the contact is deleted)", type: "object", nullable: true, properties: { id: { type: "string" }, email: { type: "string" } } })
  contact!: { id: string; email: string } | null;
  @ApiProperty({ description: 'Custom contact data: keys and JSON values (see docs/api.md "Custom data")', type: 'object', additionalProperties: true })
  data!: Record<string, unknown>;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
}

export function toEventResponse(row: EventListRow): EventResponse {
  return {
    id: row.id,
    name: row.name,
    contactId: row.contact_id,
    contact: row.contact_id && row.contact_email ? { id: row.contact_id, email: row.contact_email } : null,
    data: row.data ?? {},
    createdAt: new Date(row.created_at).toISOString(),
  };
}
