/**
 * Event names the service emits itself; `/v1/track` refuses them (422, item code
 * `reserved_event`): `email.*`, `contact.subscribed`, `contact.unsubscribed`, `contact.confirmed`,
 * `contact.snoozed`, `contact.erased`, `contact.topic.subscribed`, `contact.topic.unsubscribed`, `segment.<slug>.entry`, `segment.<slug>.exit`. Matching is case-insensitive so `Email.Sent`
 * cannot impersonate a system event.
 */
const RESERVED_PATTERNS = [/^email\./i, /^contact\.(subscribed|unsubscribed|snoozed|confirmed|erased)$/i, /^contact\.topic\.(subscribed|unsubscribed)$/i, /^segment\..+\.(entry|exit)$/i];

export function isReservedEventName(name: string): boolean {
  const trimmed = name.trim();
  return RESERVED_PATTERNS.some((pattern) => pattern.test(trimmed));
}

/** Names of the subscription events (persisted in events.name). */
export const CONTACT_SUBSCRIBED = 'contact.subscribed';
export const CONTACT_UNSUBSCRIBED = 'contact.unsubscribed';
/** Double opt-in: the contact clicked its confirmation link (persisted in events.name). */
export const CONTACT_CONFIRMED = 'contact.confirmed';
/** Topic membership and snooze events (persisted in events.name): `{topic}` and `{until}`. */
export const CONTACT_TOPIC_SUBSCRIBED = 'contact.topic.subscribed';
export const CONTACT_TOPIC_UNSUBSCRIBED = 'contact.topic.unsubscribed';
export const CONTACT_SNOOZED = 'contact.snoozed';
/** A contact's erasure completed (persisted in events.name): `{contactId}`, never the address; recorded without a contact. */
export const CONTACT_ERASED = 'contact.erased';
