import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { appMetrics } from '../../../platform/metrics/metrics';
import type { StoredEvent } from '../../events/events.types';
import { WorkflowQueue } from './workflow-queue';

/**
 * The `workflows` event consumer: per batch of stored events, one statement starts every
 * matching enabled EVENT workflow for the event's contact (through its TRIGGER step), and one resumes executions waiting
 * for such an event. Delivery is at least once, so both are idempotent: an event starts a
 * workflow at most once (unique (workflow_id, trigger_event_id)), a contact never has two active
 * executions of one workflow (unique partial index), and a resumed wait no longer matches.
 */
@Injectable()
export class WorkflowTriggers {
  readonly name = 'workflows';

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: WorkflowQueue,
  ) {}

  async handle(events: StoredEvent[]): Promise<void> {
    const withContact = events.filter((e) => e.contactId !== null);
    if (withContact.length === 0) return;
    const rows = JSON.stringify(
      withContact.map((e, i) => ({ i, id: e.id, project_id: e.projectId, contact_id: e.contactId, name: e.name, data: e.data, created_at: e.createdAt })),
    );
    const started: Array<{ id: string; status: string }> = await this.dataSource.query(START_SQL, [rows]);
    appMetrics.workflowStep('TRIGGER', 'COMPLETED', started.length);
    const [resumed]: [Array<{ id: string; steps_run: number }>, number] = await this.dataSource.query(RESUME_SQL, [rows]);
    await this.queue.groupedSteps(started.filter((r) => r.status === 'RUNNING').map((r) => ({ executionId: r.id, seq: 1 })));
    await this.queue.wakes(
      resumed.map((r) => ({ executionId: r.id, seq: r.steps_run })),
      'e',
    );
  }
}

/**
 * Without `allowReentry` a contact enters a workflow at most once ever; with it, again once no
 * execution of it is active. Of the batch's events for one contact and workflow only the first
 * can start it (a second would find the first active). The TRIGGER step runs here, set-based:
 * each execution is written with its TRIGGER record (seq 0) and already at the step after it
 * (`steps_run` 1), or COMPLETED when the trigger leads nowhere, as the engine would leave it.
 * The TRIGGER records join the inserted executions to their workflow's TRIGGER step by index, not
 * to `candidate`: PostgreSQL estimates both CTEs at one row and joined them by nested loop, which
 * was quadratic in the batch (2,500 executions: 6.2M comparisons, 474 of the statement's 577 ms).
 */
const START_SQL = `
  WITH e AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(i int, id uuid, project_id uuid, contact_id text, name text, data jsonb, created_at timestamptz)
  ), candidate AS (
    SELECT DISTINCT ON (w.id, e.contact_id)
           w.project_id, w.id AS workflow_id, w.version, e.contact_id, e.data, e.id AS event_id, e.i, t.id AS trigger_id,
           (SELECT tr.to_step_id FROM workflow_transitions tr WHERE tr.from_step_id = t.id LIMIT 1) AS next_id
      FROM e
      JOIN workflows w ON w.project_id = e.project_id AND w.event_name = e.name AND w.enabled AND w.trigger_type = 'EVENT'
      JOIN workflow_steps t ON t.workflow_id = w.id AND t.type = 'TRIGGER'
     WHERE w.allow_reentry OR NOT EXISTS (SELECT 1 FROM workflow_executions p WHERE p.workflow_id = w.id AND p.contact_id = e.contact_id)
     ORDER BY w.id, e.contact_id, e.i
  ), started AS (
    INSERT INTO workflow_executions (project_id, workflow_id, version, contact_id, event, trigger_event_id, current_step_id, steps_run, status, completed_at)
    SELECT project_id, workflow_id, version, contact_id, data, event_id, coalesce(next_id, trigger_id), 1,
           CASE WHEN next_id IS NULL THEN 'COMPLETED' ELSE 'RUNNING' END, CASE WHEN next_id IS NULL THEN now() END
      FROM candidate ORDER BY i
    ON CONFLICT DO NOTHING
    RETURNING id, workflow_id, status
  ), triggered AS (
    INSERT INTO workflow_execution_steps (execution_id, seq, step_id, type, status, output, started_at, completed_at)
    SELECT s.id, 0, t.id, 'TRIGGER', 'COMPLETED', jsonb_build_object('eventName', t.config->'eventName'), now(), now()
      FROM started s JOIN workflow_steps t ON t.workflow_id = s.workflow_id AND t.type = 'TRIGGER'
  )
  SELECT id, status FROM started`;

/** The first matching event after the wait began resumes it (wait_event cleared, so only once). */
const RESUME_SQL = `
  UPDATE workflow_executions x
     SET wait_outcome = 'EVENT', wake_at = now(), wait_event = NULL, updated_at = now()
    FROM jsonb_to_recordset($1::jsonb) AS e(i int, id uuid, project_id uuid, contact_id text, name text, data jsonb, created_at timestamptz)
   WHERE x.status = 'WAITING' AND x.wait_event IS NOT NULL AND x.contact_id = e.contact_id AND x.wait_event = e.name
     AND x.project_id = e.project_id AND x.wait_since <= e.created_at
  RETURNING x.id, x.steps_run`;
