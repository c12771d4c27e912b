import { MigrationInterface, QueryRunner } from 'typeorm';

export class Segments1763706000000 implements MigrationInterface {
  name = 'Segments1763706000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE segments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        type text NOT NULL,
        condition jsonb,
        track_membership boolean NOT NULL DEFAULT false,
        member_count integer NOT NULL DEFAULT 0,
        computed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX segments_project_created_idx ON segments (project_id, created_at DESC, id)`);
    // STATIC segments' members, and the last computed membership of tracked DYNAMIC segments.
    await q.query(`
      CREATE TABLE segment_members (
        segment_id uuid NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
        contact_id text NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (segment_id, contact_id)
      )`);
    await q.query(`CREATE INDEX segment_members_contact_idx ON segment_members (contact_id)`);
    // What the filter compiler emits: containment on data (equals), keyset batches over a
    // project's contacts, a contact's events by name and time, a contact's emails by status.
    await q.query(`CREATE INDEX contacts_data_gin_idx ON contacts USING gin (data jsonb_path_ops)`);
    await q.query(`CREATE INDEX contacts_project_id_idx ON contacts (project_id, id)`);
    await q.query(`CREATE INDEX events_project_contact_name_created_idx ON events (project_id, contact_id, name, created_at)`);
    // `event.<name> triggeredWithin …` over a whole project: an index-only scan yields the contact ids.
    await q.query(`CREATE INDEX events_project_name_created_contact_idx ON events (project_id, name, created_at) INCLUDE (contact_id)`);
    await q.query(`CREATE INDEX emails_contact_status_idx ON emails (contact_id, status)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS emails_contact_status_idx`);
    await q.query(`DROP INDEX IF EXISTS events_project_name_created_contact_idx`);
    await q.query(`DROP INDEX IF EXISTS events_project_contact_name_created_idx`);
    await q.query(`DROP INDEX IF EXISTS contacts_project_id_idx`);
    await q.query(`DROP INDEX IF EXISTS contacts_data_gin_idx`);
    await q.query(`DROP TABLE IF EXISTS segment_members`);
    await q.query(`DROP TABLE IF EXISTS segments`);
  }
}
