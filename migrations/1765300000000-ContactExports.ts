import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk contact exports (docs/personal-data.md, "Bulk export"): one row per export job, its file
 * under `$DATA_DIR/exports`. `attempt` names the file a run writes, so a run that a crash or a
 * stalled lock left behind cannot finish another run's file. Rows and files go after 7 days (a
 * worker, by `contact_exports_created_idx`), and with their project.
 */
export class ContactExports1765300000000 implements MigrationInterface {
  name = 'ContactExports1765300000000';

  async up(q: QueryRunner): Promise<void> {
    // format and status values are persisted: 'csv' | 'ndjson'; 'queued' | 'running' | 'completed' | 'failed'.
    await q.query(`
      CREATE TABLE contact_exports (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        format text NOT NULL,
        selection jsonb NOT NULL DEFAULT '{}'::jsonb,
        status text NOT NULL DEFAULT 'queued',
        attempt integer NOT NULL DEFAULT 0,
        row_count integer NOT NULL DEFAULT 0,
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        CONSTRAINT contact_exports_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE,
        CONSTRAINT contact_exports_format_check CHECK (format IN ('csv', 'ndjson'))
      )`);
    await q.query(`CREATE INDEX contact_exports_project_created_idx ON contact_exports (project_id, created_at)`);
    await q.query(`CREATE INDEX contact_exports_created_idx ON contact_exports (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE contact_exports`);
  }
}
