import { Fragment, sql } from '../../../platform/database/sql-fragment';
import { campaignEmailsSql } from '../../emails';

/**
 * The release moment of contact `c` (alias) for a recipient-time-zone campaign: the wall-clock
 * time `wall` in the contact's `data.timezone` when PostgreSQL knows that zone (`names`, from
 * `pg_timezone_names`, as a hashed set), else in `fallback`.
 */
export const contactMomentSql = (wall: Fragment, fallback: Fragment, names: string[]): Fragment =>
  sql`((${wall})::timestamp AT TIME ZONE (CASE WHEN c.data->>'timezone' IN (SELECT unnest(${names}::text[])) THEN c.data->>'timezone' ELSE (${fallback})::text END))`;

/** The wall-clock time and fallback zone of a SENDING campaign, read from its row by the statement that uses them. */
export const campaignZonesSql = (campaignId: string) => ({
  wall: sql`(SELECT k.local_scheduled_for FROM campaigns k WHERE k.id = ${campaignId}::uuid)`,
  fallback: sql`(SELECT coalesce(k.fallback_timezone, 'UTC') FROM campaigns k WHERE k.id = ${campaignId}::uuid)`,
});

/** Contact `c` has no email row of the campaign yet (served by `emails_campaign_contact_idx`). */
export const unwrittenSql = (projectId: string, campaignId: string): Fragment =>
  sql`NOT EXISTS (SELECT 1 FROM ${campaignEmailsSql(projectId, campaignId)} WHERE e.contact_id = c.id)`;

/** The fixed audience of a campaign (contacts `c` of the project created up to `fixedAt` matching `condition`). */
export const fixedAudienceSql = (projectId: string, fixedAt: string, condition: Fragment): Fragment =>
  sql`c.project_id = ${projectId} AND c.created_at <= ${fixedAt}::timestamptz AND (${condition})`;

/**
 * The earliest instant at or after `t` inside a sending window (days in English three-letter
 * form, `from`/`to` local times in `tz`); `t` itself when it is inside. Over the window's days of
 * the week that starts the day before `t`'s local date (an opening is never further away).
 */
export const nextOpeningSql = (t: Fragment, w: { days: string[]; from: string; to: string; timezone: string }): Fragment => sql`
  SELECT min(greatest(o.opens, ${t})) AS at
    FROM (SELECT (d::date + ${w.from}::time) AT TIME ZONE ${w.timezone}::text AS opens,
                 (d::date + ${w.to}::time) AT TIME ZONE ${w.timezone}::text AS closes
            FROM generate_series((${t} AT TIME ZONE ${w.timezone}::text)::date - 1, (${t} AT TIME ZONE ${w.timezone}::text)::date + 7, interval '1 day') d
           WHERE to_char(d, 'dy') = ANY(${w.days}::text[])) o
   WHERE o.closes > ${t}`;

/** Contact `c`'s `moment` has been released: it is at or before the campaign's `release_moment`. */
export const releasedSql = (campaignId: string, moment: Fragment): Fragment =>
  sql`${moment} <= (SELECT k.release_moment FROM campaigns k WHERE k.id = ${campaignId}::uuid)`;
