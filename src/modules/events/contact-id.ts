export const CONTACT_ID = /^cnt_[0-9a-f]{32}$/;

/** Path and body ids are checked before any query: a malformed id is simply not found. */
export function isContactId(value: unknown): value is string {
  return typeof value === 'string' && CONTACT_ID.test(value);
}
