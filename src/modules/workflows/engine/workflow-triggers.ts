import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { StoredEvent } from '../../events/events.types';
import { WorkflowEngine } from './workflow-engine';
import { WorkflowQueue } from './workflow-queue';

/**
 * The `workflows` event consumer. Per batch of stored events, one small statement asks, of the
 * batch's distinct (project, name) pairs only, which enabled EVENT workflows they start and which
 * have executions waiting for them; a batch that concerns no workflow ends there (the common case
 * under tracking load, which so sends PostgreSQL a few pairs instead of every event). Then one
 * statement starts the listening workflows for the events of their pairs (as the engine planned
 * each version's start) and one resumes executions waiting for the events of awaited pairs.
 * Delivery is at least once, so all are idempotent: an event starts a workflow at most once
 * (unique (workflow_id, contact_id, trigger_event_id)), a contact never has two active executions
 * of one workflow (unique partial index), and a resumed wait no longer matches.
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
    const pairs = new Map<string, { projectId: string; name: string }>();
    for (const e of withContact) pairs.set(pairKey(e.projectId, e.name), { projectId: e.projectId, name: e.name });
    const found: Array<{ kind: 'start' | 'resume'; project_id: string; name: string; id: string | null; version: number | null }> = await this.dataSource.query(
      PROBE_SQL,
      [[...pairs.values()].map((p) => p.projectId), [...pairs.values()].map((p) => p.name)],
    );
    if (found.length === 0) return;
    const started = new Set<string>();
    const awaited = new Set<string>();
    const listening: Array<{ id: string; version: number }> = [];
    for (const f of found) {
      if (f.kind === 'start') {
        started.add(pairKey(f.project_id, f.name));
        listening.push({ id: f.id!, version: f.version! });
      } else awaited.add(pairKey(f.project_id, f.name));
    }
    const keys = (e: StoredEvent, i: number) => ({ i, project_id: e.projectId, contact_id: e.contactId, name: e.name, created_at: e.createdAt });
    // Ids and data (which can be large) travel only for the events that start a workflow.
    const starting = withContact.filter((e) => started.has(pairKey(e.projectId, e.name)));
    await this.engine.start(listening, (plans) =>
      this.dataSource.query(START_SQL, [JSON.stringify(starting.map((e, i) => ({ ...keys(e, i), id: e.id, data: e.data }))), JSON.stringify(plans)]),
    );
    const resuming = withContact.filter((e) => awaited.has(pairKey(e.projectId, e.name)));
    if (resuming.length === 0) return;
    const [resumed]: [Array<{ id: string; steps_run: number }>, number] = await this.dataSource.query(RESUME_SQL, [JSON.stringify(resuming.map(keys))]);
    await this.queue.wakes(
      resumed.map((r) => ({ executionId: r.id, seq: r.steps_run })),
      'e',
    );
  }
}

const pairKey = (projectId: string, name: string): string => `${projectId}\u0000${name}`;

/**
 * Of the batch's distinct (project, event name) pairs: the enabled EVENT workflows each starts, at
 * their current version (`start` rows), and the pairs some execution waits for (`resume` rows).
 */
const PROBE_SQL = `
  WITH pair AS (SELECT * FROM unnest($1::uuid[], $2::text[]) AS p(project_id, name))
  SELECT 'start' AS kind, p.project_id, p.name, w.id, w.version
    FROM pair p JOIN workflows w ON w.project_id = p.project_id AND w.event_name = p.name AND w.enabled AND w.trigger_type = 'EVENT'
  UNION ALL
  SELECT 'resume', p.project_id, p.name, NULL, NULL
    FROM pair p
   WHERE EXISTS (SELECT 1 FROM workflow_executions x
                  WHERE x.status = 'WAITING' AND x.wait_event IS NOT NULL AND x.project_id = p.project_id AND x.wait_event = p.name)`;

const EVENTS = `jsonb_to_recordset($1::jsonb) AS e(i int, id uuid, project_id uuid, contact_id text, name text, data jsonb, created_at timestamptz)`;

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
