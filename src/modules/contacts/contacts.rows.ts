import { ConfirmationState, Contact } from './entities/contact.entity';

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

/** A contact row as the `Contact` entity the services work with. */
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

/** What the contact list's statements read of a list request (`sql/list-contacts.sql.ts`); the query DTO has this shape. */
export interface ContactListParams {
  limit?: string;
  cursor?: string;
  search?: string;
  subscribed?: boolean;
  confirmation?: 'pending' | 'confirmed' | 'none';
  snoozed?: boolean;
  sort?: string;
  dir?: string;
}
