import { Fragment, sql } from '../../../platform/database/sql-fragment';

/**
 * The emails of one campaign as a row source for the campaigns module's queries (which never
 * name the emails table): `SELECT … FROM ${campaignEmailsSql(p, c)} WHERE e.status …`, alias `e`.
 * Served by `emails_campaign_contact_idx` (and `emails_campaign_unfinished_idx` for a status of
 * `('queued', 'sending')`).
 */
export const campaignEmailsSql = (projectId: string, campaignId: string): Fragment =>
  sql`(SELECT * FROM emails WHERE project_id = ${projectId}::uuid AND campaign_id = ${campaignId}::uuid) e`;

/** The emails of all of a project's campaigns created in the range, alias `e`. */
export const projectCampaignEmailsSql = (projectId: string, range: { from: Date; to: Date }): Fragment =>
  sql`(SELECT * FROM emails WHERE project_id = ${projectId}::uuid AND campaign_id IS NOT NULL
        AND created_at >= ${range.from.toISOString()}::timestamptz AND created_at <= ${range.to.toISOString()}::timestamptz) e`;
