import { MigrationInterface, QueryRunner } from 'typeorm';

export class WaitingEventIndex1763713000000 implements MigrationInterface {
  name = 'WaitingEventIndex1763713000000';

  async up(q: QueryRunner): Promise<void> {
    // The workflows event consumer first asks whether any execution of a project waits for an
    // event name at all (by project and name), then resumes by project, name and contact: one
    // index keyed (project_id, wait_event, contact_id) answers both, in place of (contact_id, wait_event).
    await q.query(
      `CREATE INDEX workflow_executions_waiting_event_idx2 ON workflow_executions (project_id, wait_event, contact_id) WHERE status = 'WAITING' AND wait_event IS NOT NULL`,
    );
    await q.query(`DROP INDEX workflow_executions_waiting_event_idx`);
    await q.query(`ALTER INDEX workflow_executions_waiting_event_idx2 RENAME TO workflow_executions_waiting_event_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX workflow_executions_waiting_event_idx`);
    await q.query(
      `CREATE INDEX workflow_executions_waiting_event_idx ON workflow_executions (contact_id, wait_event) WHERE status = 'WAITING' AND wait_event IS NOT NULL`,
    );
  }
}
