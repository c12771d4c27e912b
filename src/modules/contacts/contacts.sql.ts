/**
 * SQL the contacts module hands to other modules' statements, so that they read contacts in their
 * own round trip without naming the table's columns. Arguments are trusted SQL expressions of the
 * caller's statement (column references, parameters), never input.
 */

/**
 * The consent of the project's contact with this address (normalised: lower-cased, trimmed), as
 * jsonb `{subscribed, snoozedUntil, topics}` (its explicit topic choices), NULL when the project
 * has no such contact. One probe of the (project_id, email) unique index.
 */
export const contactConsentSql = (projectId: string, normalizedEmail: string): string =>
  `(SELECT jsonb_build_object('subscribed', ct.subscribed, 'snoozedUntil', ct.snoozed_until, 'topics', ct.topics) FROM contacts ct
     WHERE ct.project_id = ${projectId} AND ct.email = ${normalizedEmail})`;

/** What `contactConsentSql` reads (JSON: `snoozedUntil` is an ISO timestamp). */
export interface ContactConsent {
  subscribed: boolean;
  snoozedUntil: string | null;
  topics: Record<string, boolean> | null;
}

/**
 * Whether the contact with this id is unsubscribed and last changed at or after `since` (a
 * recipient who unsubscribed after a message left). One probe of the primary key.
 */
export const contactUnsubscribedSinceSql = (contactId: string, since: string): string =>
  `EXISTS (SELECT 1 FROM contacts ct WHERE ct.id = ${contactId} AND NOT ct.subscribed AND ct.updated_at >= ${since})`;

/**
 * The address of the project's contact with this id, NULL when the project has none (the contact
 * of an event, in the webhook replay's statement). One probe of the primary key.
 */
export const contactEmailSql = (projectId: string, contactId: string): string =>
  `(SELECT ct.email FROM contacts ct WHERE ct.id = ${contactId} AND ct.project_id = ${projectId})`;

/**
 * Whether the address is on the project's erased list (`erased_addresses`: a contact erased, not
 * subscribed explicitly since), found by `sha256(project salt ‖ address)`. A project that never
 * erased anyone has no salt row: one probe of `erasure_salts` answers; otherwise one more probe of
 * `erased_addresses`' primary key.
 */
export const erasedAddressSql = (projectId: string, normalizedEmail: string): string =>
  `EXISTS (SELECT 1 FROM erasure_salts es JOIN erased_addresses ea ON ea.project_id = es.project_id AND ea.address_hash = ${addressHashSql('es.salt', normalizedEmail)}
            WHERE es.project_id = ${projectId})`;

/** The key `erased_addresses` keeps an address by: its project's salt, then the lower-cased address, hashed (bytea). */
export const addressHashSql = (salt: string, normalizedEmail: string): string => `sha256(${salt} || convert_to(lower(${normalizedEmail}), 'UTF8'))`;
