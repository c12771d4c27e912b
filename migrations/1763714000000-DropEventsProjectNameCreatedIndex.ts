import { MigrationInterface, QueryRunner } from 'typeorm';

export class DropEventsProjectNameCreatedIndex1763714000000 implements MigrationInterface {
  name = 'DropEventsProjectNameCreatedIndex1763714000000';

  async up(q: QueryRunner): Promise<void> {
    // `events_project_name_created_contact_idx (project_id, name, created_at) INCLUDE (contact_id)`
    // (segments) has the same keys: it serves the event lists by name (scanned backwards for the
    // newest first), the counts per name and the deletes by name as this one did. Every tracked
    // event wrote an entry into both (bench/README.md, "Track measured side by side, and its
    // PostgreSQL work").
    await q.query(`DROP INDEX IF EXISTS events_project_name_created_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX events_project_name_created_idx ON events (project_id, name, created_at DESC)`);
  }
}
