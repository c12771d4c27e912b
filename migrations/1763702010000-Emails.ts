import { MigrationInterface, QueryRunner } from 'typeorm';

export class Emails1763702010000 implements MigrationInterface {
  name = 'Emails1763702010000';

  async up(q: QueryRunner): Promise<void> {
    // The Liquid sources and options of one send request (or campaign), shared by its emails.
    await q.query(`
      CREATE TABLE email_contents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid REFERENCES projects(id) ON DELETE CASCADE,
        template_id uuid REFERENCES templates(id) ON DELETE SET NULL,
        subject text NOT NULL,
        body text NOT NULL,
        -- false for account mail, whose subject and HTML arrive final and must not be read as Liquid
        liquid boolean NOT NULL DEFAULT true,
        -- a given plain-text part; null: generated from the rendered HTML
        text text,
        from_name text,
        reply_to text,
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        attachments jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One row per recipient message. `status` and `type` hold persisted values:
    // status queued | sending | sent | delivered | bounced | failed | skipped (and later states
    // added by deliverability); type TRANSACTIONAL | MARKETING | HEADLESS.
    await q.query(`
      CREATE TABLE emails (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid REFERENCES projects(id) ON DELETE CASCADE,
        contact_id text REFERENCES contacts(id) ON DELETE SET NULL,
        template_id uuid REFERENCES templates(id) ON DELETE SET NULL,
        campaign_id uuid,
        content_id uuid REFERENCES email_contents(id) ON DELETE CASCADE,
        type text NOT NULL,
        from_address text NOT NULL,
        to_address text NOT NULL,
        to_name text,
        subject text,
        variables jsonb,
        status text NOT NULL DEFAULT 'queued',
        message_id text,
        provider_message_id text,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        lease_until timestamptz,
        track_opens boolean NOT NULL DEFAULT false,
        track_clicks boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        delivered_at timestamptz,
        bounced_at timestamptz,
        bounce_type text,
        complained_at timestamptz,
        failed_at timestamptz,
        opened_at timestamptz,
        clicked_at timestamptz,
        open_count integer NOT NULL DEFAULT 0,
        click_count integer NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE INDEX emails_project_created_idx ON emails (project_id, created_at DESC, id)`);
    await q.query(`CREATE INDEX emails_contact_created_idx ON emails (contact_id, created_at DESC)`);
    await q.query(`CREATE INDEX emails_campaign_idx ON emails (campaign_id) WHERE campaign_id IS NOT NULL`);
    await q.query(`CREATE INDEX emails_provider_message_idx ON emails (provider_message_id) WHERE provider_message_id IS NOT NULL`);
    await q.query(`CREATE INDEX emails_content_idx ON emails (content_id)`);
    // The re-enqueue sweep looks only at unfinished rows.
    await q.query(`CREATE INDEX emails_unfinished_idx ON emails (created_at) WHERE status IN ('queued', 'sending')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS emails`);
    await q.query(`DROP TABLE IF EXISTS email_contents`);
  }
}
