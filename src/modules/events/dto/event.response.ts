export interface EventResponse {
  id: string;
  name: string;
  contactId: string | null;
  contact: { id: string; email: string } | null;
  data: Record<string, unknown>;
  createdAt: string;
}

export interface EventListRow {
  id: string;
  name: string;
  contact_id: string | null;
  contact_email: string | null;
  data: Record<string, unknown> | null;
  created_at: Date | string;
  created_key: string;
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
