import { MigrationInterface, QueryRunner } from 'typeorm';

export class ContactsEvents1763701000000 implements MigrationInterface {
  name = 'ContactsEvents1763701000000';

  async up(q: QueryRunner): Promise<void> {
    // fillfactor leaves room on each page so data/subscription updates (every /v1/track that
    // changes data) stay HOT and skip the email indexes.
    // Contact ids are text `cnt_<32 hex>` so every table referencing a contact stores the wire id.
    await q.query(`
      CREATE TABLE contacts (
        id text PRIMARY KEY DEFAULT ('cnt_' || replace(gen_random_uuid()::text, '-', '')),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        email text NOT NULL,
        subscribed boolean NOT NULL DEFAULT true,
        data jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT contacts_project_email_key UNIQUE (project_id, email)
      ) WITH (fillfactor = 85)`);
    await q.query(`CREATE INDEX contacts_project_created_idx ON contacts (project_id, created_at, id)`);
    await q.query(`CREATE INDEX contacts_email_trgm_idx ON contacts USING gin (email gin_trgm_ops)`);
    await q.query(`
      CREATE TABLE contact_fields (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        key text NOT NULL,
        type text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, key)
      )`);
    // Events of a deleted contact go with it (a contact delete is permanent, spec section 4).
    await q.query(`
      CREATE TABLE events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        contact_id text REFERENCES contacts(id) ON DELETE CASCADE,
        name text NOT NULL,
        data jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX events_project_created_idx ON events (project_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX events_project_name_created_idx ON events (project_id, name, created_at DESC)`);
    await q.query(`CREATE INDEX events_contact_created_idx ON events (contact_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS events`);
    await q.query(`DROP TABLE IF EXISTS contact_fields`);
    await q.query(`DROP TABLE IF EXISTS contacts`);
  }
}
