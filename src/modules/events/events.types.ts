/** An event as stored and as handed to event consumers (outbox/event-consumers.ts). */
export interface StoredEvent {
  id: string;
  projectId: string;
  contactId: string | null;
  name: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

export interface RecordEventInput {
  contactId: string | null;
  name: string;
  data?: Record<string, unknown>;
}

/** Row shape of `RETURNING ${EVENT_COLUMNS}`. */
export interface EventRow {
  id: string;
  project_id: string;
  contact_id: string | null;
  name: string;
  data: Record<string, unknown>;
  created_at: Date | string;
}

export function fromEventRow(row: EventRow): StoredEvent {
  return {
    id: row.id,
    projectId: row.project_id,
    contactId: row.contact_id,
    name: row.name,
    data: row.data ?? {},
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}

export const EVENT_COLUMNS = 'id, project_id, contact_id, name, data, created_at';
