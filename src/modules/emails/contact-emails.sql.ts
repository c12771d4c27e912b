import { Fragment, raw, sql } from '../../platform/database/sql-fragment';

/** What a contact's emails can have done, and the emails column that records when. */
export const EMAIL_ACTIVITIES = {
  sent: 'sent_at',
  delivered: 'delivered_at',
  opened: 'opened_at',
  clicked: 'clicked_at',
  bounced: 'bounced_at',
  complained: 'complained_at',
} as const;
export type EmailActivity = keyof typeof EMAIL_ACTIVITIES;

/**
 * SQL the emails module hands to the filter engine (segments, workflow conditions): the emails
 * of the contact `c.id` (alias `c` over contacts in the caller's statement) that reached
 * `activity`, as rows to test with `EXISTS (…)`, and the column to bound its time with.
 */
export function contactEmailActivitySql(projectId: string, activity: EmailActivity): { rows: Fragment; at: Fragment } {
  const at = raw(`m.${EMAIL_ACTIVITIES[activity]}`);
  return { rows: sql`SELECT 1 FROM emails m WHERE m.project_id = ${projectId}::uuid AND m.contact_id = c.id AND ${at} IS NOT NULL`, at };
}
