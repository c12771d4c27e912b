import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Emails interrupted during their hand-over are `uncertain` (docs/reliability.md): counted apart
 * per campaign. An uncertain email can still leave that state: a late outcome write makes it
 * `sent`, and `resend-uncertain` puts it back to `queued`, so the counter goes both ways.
 * Emails already `failed` with the interrupted-hand-over reason become `uncertain`.
 */
export class UncertainEmails1763717000000 implements MigrationInterface {
  name = 'UncertainEmails1763717000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN uncertain_count integer NOT NULL DEFAULT 0`);
    await q.query(counterFunction(true));
    await q.query(`UPDATE emails SET status = 'uncertain', failed_at = NULL, updated_at = now()
                    WHERE status = 'failed' AND error LIKE 'interrupted while being handed to the transport%'`);
    // The trigger counted those as new uncertain emails; they were counted failed before.
    await q.query(`UPDATE campaigns k SET failed_count = k.failed_count - u.n
                     FROM (SELECT campaign_id, count(*)::int AS n FROM emails WHERE status = 'uncertain' AND campaign_id IS NOT NULL GROUP BY 1) u
                    WHERE u.campaign_id = k.id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE emails SET status = 'failed', failed_at = updated_at WHERE status = 'uncertain'`);
    await q.query(counterFunction(false));
    await q.query(`ALTER TABLE campaigns DROP COLUMN uncertain_count`);
  }
}

function counterFunction(withUncertain: boolean): string {
  const uncertain = withUncertain
    ? `,
                 count(*) FILTER (WHERE n.status = 'uncertain' AND o.status <> 'uncertain')
                   - count(*) FILTER (WHERE o.status = 'uncertain' AND n.status <> 'uncertain') AS uncertain`
    : '';
  return `
      CREATE OR REPLACE FUNCTION campaign_counters_on_email_update() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        WITH d AS (
          SELECT n.campaign_id AS id,
                 count(*) FILTER (WHERE n.sent_at IS NOT NULL AND o.sent_at IS NULL) AS sent,
                 count(*) FILTER (WHERE n.delivered_at IS NOT NULL AND o.delivered_at IS NULL) AS delivered,
                 count(*) FILTER (WHERE n.opened_at IS NOT NULL AND o.opened_at IS NULL) AS opened,
                 count(*) FILTER (WHERE n.clicked_at IS NOT NULL AND o.clicked_at IS NULL) AS clicked,
                 count(*) FILTER (WHERE n.bounced_at IS NOT NULL AND o.bounced_at IS NULL) AS bounced,
                 count(*) FILTER (WHERE n.complained_at IS NOT NULL AND o.complained_at IS NULL) AS complained,
                 count(*) FILTER (WHERE n.status = 'failed' AND o.status <> 'failed') AS failed,
                 count(*) FILTER (WHERE n.status = 'skipped' AND o.status <> 'skipped') AS skipped${uncertain}
            FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE n.campaign_id IS NOT NULL
           GROUP BY n.campaign_id
        ), r AS (
          SELECT n.campaign_id AS id, coalesce(n.error, 'other') AS reason, count(*) AS n
            FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE n.campaign_id IS NOT NULL AND n.status = 'skipped' AND o.status <> 'skipped'
           GROUP BY 1, 2
        )
        UPDATE campaigns k
           SET sent_count = k.sent_count + d.sent, delivered_count = k.delivered_count + d.delivered,
               opened_count = k.opened_count + d.opened, clicked_count = k.clicked_count + d.clicked,
               bounced_count = k.bounced_count + d.bounced, complained_count = k.complained_count + d.complained,
               failed_count = k.failed_count + d.failed, skipped_count = k.skipped_count + d.skipped,${withUncertain ? '\n               uncertain_count = k.uncertain_count + d.uncertain,' : ''}
               skipped = k.skipped || coalesce((SELECT jsonb_object_agg(r.reason, r.n + coalesce((k.skipped->>r.reason)::int, 0)) FROM r WHERE r.id = k.id), '{}'::jsonb)
          FROM d
         WHERE k.id = d.id AND (d.sent + d.delivered + d.opened + d.clicked + d.bounced + d.complained + d.failed + d.skipped${withUncertain ? ' + abs(d.uncertain)' : ''}) > 0;
        RETURN NULL;
      END
      $fn$`;
}
