import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (docs/audit-log.md): who did what to a project, kept a year (a worker deletes
 * older entries in batches, by `audit_log_at_idx`). Entries go with their project; a reset keeps
 * them. The list reads `audit_log_project_at_idx`, newest first.
 */
export class AuditLog1765100000000 implements MigrationInterface {
  name = 'AuditLog1765100000000';

  async up(q: QueryRunner): Promise<void> {
    // actor_type values are persisted: 'user' | 'key'; action and target_type: modules/audit/audit-actions.ts.
    await q.query(`
      CREATE TABLE audit_log (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        actor_type text NOT NULL,
        actor_id text NOT NULL,
        actor_email text,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        changes text[],
        ip text,
        at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT audit_log_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE,
        CONSTRAINT audit_log_actor_type_check CHECK (actor_type IN ('user', 'key'))
      )`);
    await q.query(`CREATE INDEX audit_log_project_at_idx ON audit_log (project_id, at DESC, id)`);
    await q.query(`CREATE INDEX audit_log_at_idx ON audit_log (at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_log`);
  }
}
