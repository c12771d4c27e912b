import { MigrationInterface, QueryRunner } from 'typeorm';

export class LighterExecutionStarts1763712000000 implements MigrationInterface {
  name = 'LighterExecutionStarts1763712000000';

  async up(q: QueryRunner): Promise<void> {
    // The step records of an execution that ended within its start (its control steps led to an
    // end, e.g. TRIGGER → EXIT, or a CONDITION that ends it): it never changes again, so its
    // records are written in its own row instead of as workflow_execution_steps rows. NULL for
    // every other execution, whose records are rows. Adding a nullable column rewrites nothing.
    await q.query(`ALTER TABLE workflow_executions ADD COLUMN records jsonb`);
    // One index instead of two on every execution insert: "an event starts a workflow once"
    // keyed by (workflow, contact, event) is the same rule, since an event has one contact, and
    // its (workflow, contact) prefix answers what workflow_executions_entered_idx answered (has
    // this contact entered this workflow, the re-entry rule).
    await q.query(`CREATE UNIQUE INDEX workflow_executions_trigger_key2 ON workflow_executions (workflow_id, contact_id, trigger_event_id)`);
    await q.query(`DROP INDEX workflow_executions_trigger_key`);
    await q.query(`DROP INDEX workflow_executions_entered_idx`);
    await q.query(`ALTER INDEX workflow_executions_trigger_key2 RENAME TO workflow_executions_trigger_key`);
    // An execution's project is its workflow's (the start copies it), and deleting a project
    // deletes its workflows, whose key deletes their executions: the project key only added a
    // check, ~8 µs per inserted execution on the embedded database (bench/README.md).
    await q.query(`ALTER TABLE workflow_executions DROP CONSTRAINT workflow_executions_project_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE workflow_executions ADD CONSTRAINT workflow_executions_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE`,
    );
    await q.query(`CREATE INDEX workflow_executions_entered_idx ON workflow_executions (workflow_id, contact_id)`);
    await q.query(`DROP INDEX workflow_executions_trigger_key`);
    await q.query(`CREATE UNIQUE INDEX workflow_executions_trigger_key ON workflow_executions (workflow_id, trigger_event_id)`);
    // Back to rows, so the executions' records survive the rollback.
    await q.query(`
      INSERT INTO workflow_execution_steps (execution_id, seq, step_id, type, status, output, error, started_at, completed_at)
      SELECT x.id, r.ord::int - 1, (r.rec->>'stepId')::uuid, r.rec->>'type', r.rec->>'status', NULLIF(r.rec->'output', 'null'), r.rec->>'error',
             (r.rec->>'startedAt')::timestamptz, (r.rec->>'completedAt')::timestamptz
        FROM workflow_executions x CROSS JOIN LATERAL jsonb_array_elements(x.records) WITH ORDINALITY AS r(rec, ord)
       WHERE x.records IS NOT NULL
      ON CONFLICT DO NOTHING`);
    await q.query(`ALTER TABLE workflow_executions DROP COLUMN records`);
  }
}
