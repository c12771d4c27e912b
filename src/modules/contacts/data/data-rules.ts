/**
 * The pure parts of the custom data rules (no server imports), shared with the dashboard
 * (`web/src/pages/contacts/dataFields.ts`) so the two cannot drift.
 */

/** Keys silently dropped from every `data` payload (they are generated template variables or core fields). */
export const RESERVED_DATA_KEYS: readonly string[] = ['id', 'plunk_id', 'plunk_email', 'email', 'unsubscribeUrl', 'subscribeUrl', 'manageUrl'];

export const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{3})?Z$/;

/** The spec's two date forms, `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS[.sss]Z`, with a real calendar day. */
export function isDateString(value: string): boolean {
  const m = DATE_ONLY.exec(value) ?? DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
