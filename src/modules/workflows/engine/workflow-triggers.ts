import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { StoredEvent } from '../../events/events.types';
import { WorkflowEngine } from './workflow-engine';
import { WorkflowQueue } from './workflow-queue';

/**
 * The `workflows` event consumer: per batch of stored events, one statement finds the enabled
 * EVENT workflows its events start, one starts them for each event's contact (as the engine
 * planned each version's start), and one resumes executions waiting for such an event. Delivery
 * is at least once, so all are idempotent: an event starts a workflow at most once (unique
 * (workflow_id, contact_id, trigger_event_id)), a contact never has two active executions of one
 * workflow (unique partial index), and a resumed wait no longer matches.
 */
@Injectable()
export class WorkflowTriggers {
  readonly name = 'workflows';

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: WorkflowQueue,
    private readonly engine: WorkflowEngine,
  ) {}

  async handle(events: StoredEvent[]): Promise<void> {
    const withContact = events.filter((e) => e.contactId !== null);
    if (withContact.length === 0) return;
    // Finding the listening workflows and the waits to resume needs no event's id or data: those
    // (data can be large) travel only when some workflow starts.
    const keys = withContact.map((e, i) => ({ i, project_id: e.projectId, contact_id: e.contactId, name: e.name, created_at: e.createdAt }));
    const keyRows = JSON.stringify(keys);
    await this.engine.start(await this.dataSource.query(LISTENING_SQL, [keyRows]), (plans) =>
      this.dataSource.query(START_SQL, [JSON.stringify(keys.map((k, i) => ({ ...k, id: withContact[i].id, data: withContact[i].data }))), JSON.stringify(plans)]),
    );
    const [resumed]: [Array<{ id: string; steps_run: number }>, number] = await this.dataSource.query(RESUME_SQL, [keyRows]);
    await this.queue.wakes(
      resumed.map((r) => ({ executionId: r.id, seq: r.steps_run })),
      'e',
    );
  }
}

const EVENTS = `jsonb_to_recordset($1::jsonb) AS e(i int, id uuid, project_id uuid, contact_id text, name text, data jsonb, created_at timestamptz)`;

/** The enabled EVENT workflows some event of the batch starts, at their current version. */
const LISTENING_SQL = `
  SELECT DISTINCT w.id, w.version
    FROM (SELECT DISTINCT project_id, name FROM ${EVENTS}) e
    JOIN workflows w ON w.project_id = e.project_id AND w.event_name = e.name AND w.enabled AND w.trigger_type = 'EVENT'`;

/**
 * Without `allowReentry` a contact enters a workflow at most once ever; with it, again once no
 * execution of it is active (read here: an execution inserted already ended, TRIGGER → EXIT, is
 * outside the unique index on active ones). Of the batch's events for one contact and workflow
 * only the first can start it (a second would find the first active). Each execution is inserted as its
 * version's plan (`$2`, one row per workflow, `WorkflowEngine.start`) leaves it, with its step
 * records: rows when it goes on, in its own row when the plan ends it. The unique indexes refuse
 * a second start by one event and a second active execution whatever this statement read. The
 * records join the inserted executions to the few plans (not to `candidate`: PostgreSQL
 * estimates both CTEs at one row and joins them by nested loop, quadratic in the batch). Answers,
 * per workflow, how many started and the ids of those that go on (RUNNING, for a job, or WAITING
 * with a timer).
 */
const START_SQL = `
  WITH plan AS (
    SELECT * FROM jsonb_to_recordset($2::jsonb) AS s(workflow_id uuid, version int, status text, current_step_id uuid, steps_run int, exit_reason text,
                                                    wait_seconds int, wait_event text, records jsonb, ended_records jsonb)
  ), record AS (
    SELECT plan.workflow_id, r.* FROM plan
     CROSS JOIN LATERAL jsonb_to_recordset(plan.records) AS r(seq int, step_id uuid, type text, step_status text, output jsonb, error text, started_at timestamptz)
  ), candidate AS (
    SELECT DISTINCT ON (w.id, e.contact_id) w.project_id, w.id AS workflow_id, e.contact_id, e.data, e.id AS event_id, e.i
      FROM ${EVENTS}
      JOIN workflows w ON w.project_id = e.project_id AND w.event_name = e.name AND w.enabled AND w.trigger_type = 'EVENT'
     WHERE NOT EXISTS (SELECT 1 FROM workflow_executions p
                        WHERE p.workflow_id = w.id AND p.contact_id = e.contact_id AND (NOT w.allow_reentry OR p.status IN ('RUNNING', 'WAITING')))
     ORDER BY w.id, e.contact_id, e.i
  ), started AS (
    INSERT INTO workflow_executions (project_id, workflow_id, version, contact_id, event, trigger_event_id, status, current_step_id, steps_run, exit_reason,
                                     wake_at, wait_event, wait_since, completed_at, records)
    SELECT c.project_id, c.workflow_id, s.version, c.contact_id, c.data, c.event_id, s.status, s.current_step_id, s.steps_run, s.exit_reason,
           CASE WHEN s.wait_seconds IS NOT NULL THEN now() + make_interval(secs => s.wait_seconds) END, s.wait_event,
           CASE WHEN s.status = 'WAITING' THEN now() END, CASE WHEN s.status IN ('COMPLETED', 'EXITED', 'FAILED') THEN now() END, s.ended_records
      FROM candidate c JOIN plan s ON s.workflow_id = c.workflow_id
     ORDER BY c.i
    ON CONFLICT DO NOTHING
    RETURNING id, workflow_id, status, wake_at
  ), recorded AS (
    INSERT INTO workflow_execution_steps (execution_id, seq, step_id, type, status, output, error, started_at, completed_at)
    SELECT st.id, r.seq, r.step_id, r.type, r.step_status, r.output, r.error, r.started_at, CASE WHEN r.step_status = 'WAITING' THEN NULL ELSE now() END
      FROM started st JOIN record r ON r.workflow_id = st.workflow_id
  )
  SELECT workflow_id, count(*)::int AS n, coalesce(array_agg(id) FILTER (WHERE status = 'RUNNING' OR wake_at IS NOT NULL), '{}') AS ids
    FROM started GROUP BY workflow_id`;

/** The first matching event after the wait began resumes it (wait_event cleared, so only once). */
const RESUME_SQL = `
  UPDATE workflow_executions x
     SET wait_outcome = 'EVENT', wake_at = now(), wait_event = NULL, updated_at = now()
    FROM ${EVENTS}
   WHERE x.status = 'WAITING' AND x.wait_event IS NOT NULL AND x.contact_id = e.contact_id AND x.wait_event = e.name
     AND x.project_id = e.project_id AND x.wait_since <= e.created_at
  RETURNING x.id, x.steps_run`;
