import { Fragment, raw, sql } from '../../platform/database/sql-fragment';

/**
 * SQL the events module hands to the filter engine (segments, workflow conditions): the events of
 * one name of the contact `c.id` (alias `c` over contacts in the caller's statement), as rows to
 * test with `EXISTS (…)`, and the column to bound their time with. Served by
 * `events_project_contact_name_created_idx`.
 */
export function contactEventsSql(projectId: string, name: string): { rows: Fragment; at: Fragment } {
  return {
    rows: sql`SELECT 1 FROM events e WHERE e.project_id = ${projectId}::uuid AND e.contact_id = c.id AND e.name = ${name}`,
    at: raw('e.created_at'),
  };
}
