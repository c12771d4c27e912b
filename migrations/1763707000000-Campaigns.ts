import { MigrationInterface, QueryRunner } from 'typeorm';

export class Campaigns1763707000000 implements MigrationInterface {
  name = 'Campaigns1763707000000';

  async up(q: QueryRunner): Promise<void> {
    // status DRAFT | SCHEDULED | SENDING | SENT | CANCELLED, type TRANSACTIONAL | MARKETING |
    // HEADLESS, audience_type ALL | SEGMENT | FILTERED: persisted values.
    await q.query(`
      CREATE TABLE campaigns (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        subject text NOT NULL,
        body text NOT NULL,
        from_address text NOT NULL,
        from_name text,
        reply_to text,
        type text NOT NULL DEFAULT 'MARKETING',
        status text NOT NULL DEFAULT 'DRAFT',
        audience_type text NOT NULL,
        segment_id uuid,
        audience_condition jsonb,
        template_id uuid REFERENCES templates(id) ON DELETE SET NULL,
        scheduled_for timestamptz,
        sent_at timestamptz,
        completed_at timestamptz,
        -- the fixed audience: contacts created up to this instant, walked by (created_at, id)
        audience_fixed_at timestamptz,
        cursor_created_at timestamptz,
        cursor_id text,
        audience_done boolean NOT NULL DEFAULT false,
        content_id uuid,
        engine_lease_until timestamptz,
        total_recipients integer NOT NULL DEFAULT 0,
        sent_count integer NOT NULL DEFAULT 0,
        delivered_count integer NOT NULL DEFAULT 0,
        opened_count integer NOT NULL DEFAULT 0,
        clicked_count integer NOT NULL DEFAULT 0,
        bounced_count integer NOT NULL DEFAULT 0,
        complained_count integer NOT NULL DEFAULT 0,
        failed_count integer NOT NULL DEFAULT 0,
        skipped_count integer NOT NULL DEFAULT 0,
        skipped jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX campaigns_project_created_idx ON campaigns (project_id, created_at DESC, id)`);
    // The engine's tick looks only at campaigns with work to do.
    await q.query(`CREATE INDEX campaigns_active_idx ON campaigns (scheduled_for) WHERE status IN ('SCHEDULED', 'SENDING')`);
    // Exactly one email per (campaign, contact), whatever crashes or retries happen.
    await q.query(`CREATE UNIQUE INDEX emails_campaign_contact_key ON emails (campaign_id, contact_id) WHERE campaign_id IS NOT NULL`);
    // Backlog (backpressure) and completion checks read only a campaign's unfinished emails.
    await q.query(`CREATE INDEX emails_campaign_unfinished_idx ON emails (campaign_id) WHERE campaign_id IS NOT NULL AND status IN ('queued', 'sending')`);
    // Counters as unique recipients (one email per contact and campaign), kept from the emails'
    // transitions in the statement that makes them: reading stats costs one row.
    await q.query(`
      CREATE FUNCTION campaign_counters_on_email_update() RETURNS trigger LANGUAGE plpgsql AS $fn$
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
                 count(*) FILTER (WHERE n.status = 'skipped' AND o.status <> 'skipped') AS skipped
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
               failed_count = k.failed_count + d.failed, skipped_count = k.skipped_count + d.skipped,
               skipped = k.skipped || coalesce((SELECT jsonb_object_agg(r.reason, r.n + coalesce((k.skipped->>r.reason)::int, 0)) FROM r WHERE r.id = k.id), '{}'::jsonb)
          FROM d
         WHERE k.id = d.id AND d.sent + d.delivered + d.opened + d.clicked + d.bounced + d.complained + d.failed + d.skipped > 0;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`
      CREATE TRIGGER emails_campaign_counters AFTER UPDATE ON emails
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION campaign_counters_on_email_update()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS emails_campaign_counters ON emails`);
    await q.query(`DROP FUNCTION IF EXISTS campaign_counters_on_email_update()`);
    await q.query(`DROP INDEX IF EXISTS emails_campaign_unfinished_idx`);
    await q.query(`DROP INDEX IF EXISTS emails_campaign_contact_key`);
    await q.query(`DROP TABLE IF EXISTS campaigns`);
  }
}
