import { Fragment, sql } from '../../platform/database/sql-fragment';

/**
 * SQL the events module hands to statements that read a project's events of a time window in
 * their own round trip (the webhook replay's `INSERT … SELECT`): a row source of `id,
 * project_id, name, contact_id, data, created_at`, events with `since <= created_at < until`. Served by
 * `events_project_created_idx (project_id, created_at DESC, id DESC)`.
 */
export function projectEventsBetweenSql(projectId: string, since: Date, until: Date): Fragment {
  return sql`SELECT e.id, e.project_id, e.name, e.contact_id, e.data, e.created_at FROM events e
    WHERE e.project_id = ${projectId}::uuid AND e.created_at >= ${since}::timestamptz AND e.created_at < ${until}::timestamptz`;
}

/**
 * The `email.click` events of one campaign's emails, alias `e` (`data` carries `emailId`, `link`).
 * Served by `events_project_campaign_created_idx (project_id, (data->>'campaignId'), …)`.
 */
export const campaignClickEventsSql = (projectId: string, campaignId: string): Fragment =>
  sql`(SELECT * FROM events WHERE project_id = ${projectId}::uuid AND data->>'campaignId' = ${campaignId} AND name = 'email.click') e`;
