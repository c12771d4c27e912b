import { MigrationInterface, QueryRunner } from 'typeorm';

export class Workflows1763708000000 implements MigrationInterface {
  name = 'Workflows1763708000000';

  async up(q: QueryRunner): Promise<void> {
    // Webhook secrets are `whsec_` + 64 hex (decisions.md); older, shorter ones are replaced.
    await q.query(
      `UPDATE projects SET webhook_secret = 'whsec_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')
        WHERE webhook_secret !~ '^whsec_[0-9a-f]{64}$'`,
    );
    // trigger_type holds persisted values EVENT | MANUAL; `version` grows with every graph change.
    await q.query(`
      CREATE TABLE workflows (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        trigger_type text NOT NULL DEFAULT 'EVENT',
        event_name text,
        enabled boolean NOT NULL DEFAULT false,
        allow_reentry boolean NOT NULL DEFAULT false,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX workflows_project_created_idx ON workflows (project_id, created_at DESC, id)`);
    await q.query(`CREATE INDEX workflows_trigger_idx ON workflows (project_id, event_name) WHERE enabled`);
    // `type` holds persisted step types (SEND_EMAIL, DELAY, …).
    await q.query(`
      CREATE TABLE workflow_steps (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
        type text NOT NULL,
        name text,
        config jsonb NOT NULL DEFAULT '{}'::jsonb,
        position jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX workflow_steps_workflow_idx ON workflow_steps (workflow_id, created_at)`);
    await q.query(`
      CREATE TABLE workflow_transitions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
        from_step_id uuid NOT NULL REFERENCES workflow_steps(id) ON DELETE CASCADE,
        to_step_id uuid NOT NULL REFERENCES workflow_steps(id) ON DELETE CASCADE,
        branch text,
        wait_outcome text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX workflow_transitions_workflow_idx ON workflow_transitions (workflow_id)`);
    // The graph as executions see it: one immutable row per version.
    await q.query(`
      CREATE TABLE workflow_versions (
        workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
        version integer NOT NULL,
        graph jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workflow_id, version)
      )`);
    // status holds persisted values RUNNING | WAITING | COMPLETED | EXITED | FAILED | CANCELLED.
    await q.query(`
      CREATE TABLE workflow_executions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
        version integer NOT NULL,
        contact_id text NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'RUNNING',
        current_step_id uuid,
        steps_run integer NOT NULL DEFAULT 0,
        exit_reason text,
        context jsonb NOT NULL DEFAULT '{}'::jsonb,
        event jsonb NOT NULL DEFAULT '{}'::jsonb,
        trigger_event_id uuid,
        wake_at timestamptz,
        wait_event text,
        wait_since timestamptz,
        wait_outcome text,
        started_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    // A contact never has two active executions of one workflow; an event starts a workflow once.
    await q.query(
      `CREATE UNIQUE INDEX workflow_executions_active_key ON workflow_executions (workflow_id, contact_id) WHERE status IN ('RUNNING', 'WAITING')`,
    );
    await q.query(`CREATE UNIQUE INDEX workflow_executions_trigger_key ON workflow_executions (workflow_id, trigger_event_id)`);
    await q.query(`CREATE INDEX workflow_executions_entered_idx ON workflow_executions (workflow_id, contact_id)`);
    await q.query(`CREATE INDEX workflow_executions_list_idx ON workflow_executions (workflow_id, started_at DESC, id)`);
    await q.query(`CREATE INDEX workflow_executions_due_idx ON workflow_executions (wake_at) WHERE status = 'WAITING'`);
    await q.query(
      `CREATE INDEX workflow_executions_waiting_event_idx ON workflow_executions (contact_id, wait_event) WHERE status = 'WAITING' AND wait_event IS NOT NULL`,
    );
    await q.query(`CREATE INDEX workflow_executions_stale_idx ON workflow_executions (updated_at) WHERE status = 'RUNNING'`);
    // One record per step run (`seq` counts the execution's steps); status COMPLETED | SKIPPED | WAITING | FAILED | CANCELLED.
    await q.query(`
      CREATE TABLE workflow_execution_steps (
        execution_id uuid NOT NULL REFERENCES workflow_executions(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        step_id uuid NOT NULL,
        type text NOT NULL,
        status text NOT NULL,
        output jsonb,
        error text,
        started_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        PRIMARY KEY (execution_id, seq)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS workflow_execution_steps`);
    await q.query(`DROP TABLE IF EXISTS workflow_executions`);
    await q.query(`DROP TABLE IF EXISTS workflow_versions`);
    await q.query(`DROP TABLE IF EXISTS workflow_transitions`);
    await q.query(`DROP TABLE IF EXISTS workflow_steps`);
    await q.query(`DROP TABLE IF EXISTS workflows`);
  }
}
