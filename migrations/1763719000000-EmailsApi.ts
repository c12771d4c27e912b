import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /v1/emails` and `GET /v1/emails/:id`.
 * - `status` filter: the project's emails of one status, newest first, and its first page's
 *   `total`, read one status's entries instead of every email of the project (no other index
 *   leads with project and status; `emails_contact_status_idx` starts with the contact).
 * - `workflow_execution_id`: the execution whose SEND_EMAIL step queued the email. Until now only
 *   the step's output named the email, which no index serves from the email's side. Nullable
 *   without a default: no table rewrite; existing workflow emails are filled from the steps.
 */
export class EmailsApi1763719000000 implements MigrationInterface {
  name = 'EmailsApi1763719000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX emails_project_status_created_idx ON emails (project_id, status, created_at DESC, id)`);
    await q.query(`ALTER TABLE emails ADD COLUMN workflow_execution_id uuid`);
    await q.query(`UPDATE emails e SET workflow_execution_id = s.execution_id
                     FROM workflow_execution_steps s
                    WHERE s.output->>'emailId' IS NOT NULL AND e.id::text = s.output->>'emailId'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE emails DROP COLUMN workflow_execution_id`);
    await q.query(`DROP INDEX IF EXISTS emails_project_status_created_idx`);
  }
}
