import type { StoredEvent } from '../../events';

/**
 * The request body of an event (docs/decisions.md#event-webhooks): `{id, type, timestamp, data}`,
 * `data` being `{contact: {id, email} | null}` plus the event's own data (`emailId`,
 * `campaignId`, the link of a click, a tracked event's data…). The replay builds the same object
 * in SQL (`deliveries.store.ts`, `replayBodySql`).
 */
export function deliveryBody(event: Pick<StoredEvent, 'id' | 'name' | 'createdAt' | 'contactId' | 'data'>, contactEmail: string | undefined): string {
  const contact = event.contactId !== null && contactEmail !== undefined ? { id: event.contactId, email: contactEmail } : null;
  // `contact` first, and ours even if the event's data has a key of that name.
  const data: Record<string, unknown> = { contact, ...event.data };
  data.contact = contact;
  return JSON.stringify({ id: event.id, type: event.name, timestamp: event.createdAt.toISOString(), data });
}

/** The `webhook.test` body of `POST /webhooks/:id/test`. */
export function testBody(id: string, at: Date): string {
  return JSON.stringify({ id, type: 'webhook.test', timestamp: at.toISOString(), data: { contact: null, test: true } });
}
