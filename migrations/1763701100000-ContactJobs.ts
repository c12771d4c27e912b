import { MigrationInterface, QueryRunner } from 'typeorm';

export class ContactJobs1763701100000 implements MigrationInterface {
  name = 'ContactJobs1763701100000';

  async up(q: QueryRunner): Promise<void> {
    // The uploaded file lives in the row (not on disk) so api and worker processes on different
    // machines, sharing only PostgreSQL, both reach it; it is cleared once the job finishes.
    // `cursor_row` is the last file row whose batch committed: a retried job resumes after it.
    await q.query(`
      CREATE TABLE import_jobs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'queued',
        file_name text,
        file_size integer NOT NULL,
        file bytea,
        total_rows integer NOT NULL DEFAULT 0,
        processed_rows integer NOT NULL DEFAULT 0,
        cursor_row integer NOT NULL DEFAULT 1,
        imported integer NOT NULL DEFAULT 0,
        updated integer NOT NULL DEFAULT 0,
        skipped integer NOT NULL DEFAULT 0,
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX import_jobs_project_created_idx ON import_jobs (project_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE import_job_errors (
        job_id uuid NOT NULL REFERENCES import_jobs(id) ON DELETE CASCADE,
        row_number integer NOT NULL,
        email text NOT NULL,
        reason text NOT NULL,
        PRIMARY KEY (job_id, row_number)
      )`);
    // `contact_ids` keeps the ids exactly as sent; `processed` counts how many of them are done.
    await q.query(`
      CREATE TABLE bulk_jobs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        operation text NOT NULL,
        status text NOT NULL DEFAULT 'queued',
        contact_ids jsonb NOT NULL,
        processed integer NOT NULL DEFAULT 0,
        success_count integer NOT NULL DEFAULT 0,
        unchanged_count integer NOT NULL DEFAULT 0,
        failure_count integer NOT NULL DEFAULT 0,
        errors jsonb NOT NULL DEFAULT '[]'::jsonb,
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX bulk_jobs_project_created_idx ON bulk_jobs (project_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS bulk_jobs`);
    await q.query(`DROP TABLE IF EXISTS import_job_errors`);
    await q.query(`DROP TABLE IF EXISTS import_jobs`);
  }
}
