// The execution state machine in SQL: claims, advances, wake-ups, trigger starts and resumes, cancellation, and the sweeps' finds.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { StatementRunner } from '../../../platform/database/statement-runner';
import type { StepRef } from '../../../platform/queues/queues';
import { ExecutionStatus, ExecutionStepRecord } from '../entities/workflow-execution.entity';
import type { ExecutionRow } from './step-executor';

const LOAD_SQL = `SELECT id, project_id, workflow_id, version, contact_id, status, current_step_id, steps_run, context, event, wake_at, wait_outcome
  FROM workflow_executions`;

/**
 * Steps recorded and executions moved, set-based (one row of `$1` per execution): each moves
 * only if it is still RUNNING at the step number its row expects. Answers the ids that moved.
 */
const ADVANCE_SQL = `
  WITH p AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS p(id uuid, seq int, status text, next uuid, exit_reason text, wait_seconds int, wait_event text,
                                                    step_id uuid, type text, step_status text, output jsonb, error text, started_at timestamptz)
  ), up AS (
    UPDATE workflow_executions x
       SET steps_run = p.seq + 1, status = p.status, current_step_id = coalesce(p.next, x.current_step_id), exit_reason = p.exit_reason,
           wake_at = CASE WHEN p.wait_seconds IS NOT NULL THEN now() + make_interval(secs => p.wait_seconds) END,
           wait_event = p.wait_event, wait_since = CASE WHEN p.status = 'WAITING' THEN now() END, wait_outcome = NULL, updated_at = now(),
           completed_at = CASE WHEN p.status IN ('COMPLETED', 'EXITED', 'FAILED') THEN now() END
      FROM p
     WHERE x.id = p.id AND x.steps_run = p.seq AND x.status = 'RUNNING'
     RETURNING x.id
  ), rec AS (
    INSERT INTO workflow_execution_steps (execution_id, seq, step_id, type, status, output, error, started_at, completed_at)
    SELECT p.id, p.seq, p.step_id, p.type, p.step_status, p.output, p.error, p.started_at, CASE WHEN p.step_status = 'WAITING' THEN NULL ELSE now() END
      FROM p JOIN up ON up.id = p.id WHERE p.step_id IS NOT NULL
    ON CONFLICT (execution_id, seq) DO NOTHING
  )
  SELECT id FROM up`;

/** One row of `ADVANCE_SQL`: a step's record and where it moves its execution (`StepScheduler.move`). */
export interface AdvanceRow {
  id: string;
  seq: number;
  status: ExecutionStatus;
  next: string | null;
  exit_reason: string | null;
  wait_seconds: number | null;
  wait_event: string | null;
  step_id: string | null;
  type: string | null;
  step_status: string;
  output: unknown;
  error: string | null;
  started_at: string;
}

/**
 * Wake-ups, set-based (one row of `$1` per execution): each resumes, and its wait's record
 * completes, only if it is still waiting at that step and due (up to a second early: timer and
 * database clocks differ). Answers the ids that resumed.
 */
const WAKE_SQL = `
  WITH p AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS p(id uuid, seq int, wait_outcome text, status text, next uuid, output jsonb)
  ), up AS (
    UPDATE workflow_executions x
       SET status = p.status, current_step_id = coalesce(p.next, x.current_step_id), wake_at = NULL, wait_event = NULL, updated_at = now(),
           completed_at = CASE WHEN p.status = 'COMPLETED' THEN now() END
      FROM p
     WHERE x.id = p.id AND x.status = 'WAITING' AND x.steps_run = p.seq AND x.wake_at <= now() + interval '1 second'
       AND x.wait_outcome IS NOT DISTINCT FROM p.wait_outcome
     RETURNING x.id
  ), rec AS (
    UPDATE workflow_execution_steps r SET status = 'COMPLETED', completed_at = now(), output = p.output
      FROM p JOIN up ON up.id = p.id WHERE r.execution_id = p.id AND r.seq = p.seq - 1
  )
  SELECT id FROM up`;

/** One row of `WAKE_SQL`: a due wait and where it resumes to (`StepScheduler.resume`). */
export interface WakeRow {
  id: string;
  seq: number;
  wait_outcome: string | null;
  status: 'RUNNING' | 'COMPLETED';
  next: string | null;
  output: unknown;
}

/**
 * Where a new execution of one workflow version stands once its control steps have run (the
 * TRIGGER and what follows it up to a wait, an end or a step with effects), with the records of
 * those steps: control steps read nothing of the execution, so every execution an event starts
 * of that version is inserted in this state (`WorkflowTriggers`).
 */
export interface StartPlan {
  workflow_id: string;
  version: number;
  status: ExecutionStatus;
  current_step_id: string | null;
  steps_run: number;
  exit_reason: string | null;
  wait_seconds: number | null;
  wait_event: string | null;
  /** The step records to insert as rows, when the execution goes on (RUNNING or WAITING); empty when the plan ends it. */
  records: Array<Record<string, unknown>>;
  /** When the plan ends it (COMPLETED, EXITED, FAILED): its records, written in the execution's row (`WorkflowExecution.records`). */
  ended_records: ExecutionStepRecord[] | null;
}

/** What the insert of planned starts answers, per workflow: how many started, and the ids of those that go on (a job, a timer). */
export interface Started {
  workflow_id: string;
  n: number;
  ids: string[];
}

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
 * version's plan (`$2`, one row per workflow, `StepScheduler.planStart`) leaves it, with its step
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

/** A stored event as the trigger statements read it (`$1` of `START_SQL` and `RESUME_SQL`): `i` its place in the batch; id and data only where it starts a workflow. */
export interface TriggerEvent {
  i: number;
  project_id: string;
  contact_id: string | null;
  name: string;
  created_at: Date;
  id?: string;
  data?: Record<string, unknown>;
}

/** A row of `PROBE_SQL`: a workflow (at its current version) a pair starts, or a pair some execution waits for. */
export interface TriggerProbe {
  kind: 'start' | 'resume';
  project_id: string;
  name: string;
  id: string | null;
  version: number | null;
}

const SWEEP_BATCH = 1_000;

/**
 * The execution state machine in SQL. The execution row is the truth: a step moves it only while
 * it is in the state the step's job expects (RUNNING with `steps_run = seq`, or WAITING and due),
 * so a retried or duplicated job finds its step done.
 */
@Injectable()
export class ExecutionsStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: StatementRunner,
  ) {}

  /** The executions (one statement) still in `status` at the step number each ref expects. */
  async loadAt(items: StepRef[], status: ExecutionStatus): Promise<ExecutionRow[]> {
    const seqs = new Map(items.map((i) => [i.executionId, i.seq]));
    const rows: ExecutionRow[] = await this.dataSource.query(`${LOAD_SQL} WHERE id = ANY($1::uuid[])`, [[...seqs.keys()]]);
    return rows.filter((ex) => ex.status === status && ex.steps_run === seqs.get(ex.id));
  }

  /** Records the steps and moves their executions, each only if still RUNNING at its `seq`; the ids that moved. */
  async advance(rows: AdvanceRow[], em?: EntityManager): Promise<Set<string>> {
    return new Set((await this.statements.run<{ id: string }>(ADVANCE_SQL, [JSON.stringify(rows)], em)).map((r) => r.id));
  }

  /**
   * One step's advance with the step's own writes (`write`, e.g. an email row) in the same
   * transaction, which commits only if the execution moved; what `write` answers (work for after
   * the commit), or null when another run got there first or it was cancelled.
   */
  async advanceWith<T>(row: AdvanceRow, write: (em: EntityManager) => Promise<T>): Promise<{ after: T } | null> {
    return this.dataSource.transaction(async (em) => {
      if ((await this.advance([row], em)).size === 0) return null;
      return { after: await write(em) };
    });
  }

  /** Resumes due waits, each only if still WAITING at its `seq`; the ids that resumed. */
  async wake(rows: WakeRow[]): Promise<Set<string>> {
    return new Set((await this.statements.run<{ id: string }>(WAKE_SQL, [JSON.stringify(rows)])).map((r) => r.id));
  }

  /** Of the batch's distinct (project, event name) pairs: the workflows each starts and the pairs some execution waits for. */
  async probeTriggers(pairs: Array<{ projectId: string; name: string }>): Promise<TriggerProbe[]> {
    return this.dataSource.query(PROBE_SQL, [pairs.map((p) => p.projectId), pairs.map((p) => p.name)]);
  }

  /** Inserts the executions `events` start, each as its version's plan leaves it; per workflow, how many started and which go on. */
  async insertStarts(events: TriggerEvent[], plans: StartPlan[]): Promise<Started[]> {
    return this.dataSource.query(START_SQL, [JSON.stringify(events), JSON.stringify(plans)]);
  }

  /** Marks the waits `events` answer as due with outcome EVENT; the executions to wake. */
  async resumeWaits(events: TriggerEvent[]): Promise<StepRef[]> {
    const [resumed]: [Array<{ id: string; steps_run: number }>, number] = await this.dataSource.query(RESUME_SQL, [JSON.stringify(events)]);
    return resumed.map((r) => ({ executionId: r.id, seq: r.steps_run }));
  }

  /** A manual start: RUNNING at the workflow's TRIGGER with `context`; its id, or null while the contact has an active execution of the workflow. */
  async insertManual(projectId: string, workflowId: string, contactId: string, context: Record<string, unknown>): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO workflow_executions (project_id, workflow_id, version, contact_id, context, current_step_id)
       SELECT w.project_id, w.id, w.version, $3, $4::jsonb, (SELECT s.id FROM workflow_steps s WHERE s.workflow_id = w.id AND s.type = 'TRIGGER')
         FROM workflows w WHERE w.id = $1 AND w.project_id = $2
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [workflowId, projectId, contactId, JSON.stringify(context)],
    );
    return rows[0]?.id ?? null;
  }

  /** CANCELLED: the active executions of the workflow (`ids` of them, or all when null), their waiting records with them; how many. */
  async cancel(projectId: string, workflowId: string, ids: string[] | null): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const [rows]: [Array<{ id: string }>, number] = await em.query(
        `UPDATE workflow_executions SET status = 'CANCELLED', completed_at = now(), updated_at = now(), wake_at = NULL, wait_event = NULL
          WHERE project_id = $1 AND workflow_id = $2 AND status IN ('RUNNING', 'WAITING') AND ($3::uuid[] IS NULL OR id = ANY($3::uuid[]))
          RETURNING id`,
        [projectId, workflowId, ids],
      );
      if (rows.length) {
        await em.query(`UPDATE workflow_execution_steps SET status = 'CANCELLED', completed_at = now() WHERE execution_id = ANY($1::uuid[]) AND status = 'WAITING'`, [
          rows.map((r) => r.id),
        ]);
      }
      return rows.length;
    });
  }

  /** WAITING executions past their due time by 5 s (their timer lost), the most overdue first. */
  async overdueWaits(): Promise<StepRef[]> {
    const rows: Array<{ id: string; steps_run: number }> = await this.dataSource.query(
      `SELECT id, steps_run FROM workflow_executions WHERE status = 'WAITING' AND wake_at <= now() - interval '5 seconds' ORDER BY wake_at LIMIT ${SWEEP_BATCH}`,
    );
    return rows.map((r) => ({ executionId: r.id, seq: r.steps_run }));
  }

  /** RUNNING executions untouched for 2 minutes (their step job lost), the oldest first. */
  async staleRuns(): Promise<StepRef[]> {
    const rows: Array<{ id: string; steps_run: number }> = await this.dataSource.query(
      `SELECT id, steps_run FROM workflow_executions WHERE status = 'RUNNING' AND updated_at <= now() - interval '2 minutes' ORDER BY updated_at LIMIT ${SWEEP_BATCH}`,
    );
    return rows.map((r) => ({ executionId: r.id, seq: r.steps_run }));
  }

  /** A step recorded COMPLETED by its advance turns out SKIPPED with `output` (inside the step's commit). */
  async recordSkipped(em: EntityManager, executionId: string, seq: number, output: unknown): Promise<void> {
    await em.query(`UPDATE workflow_execution_steps SET status = 'SKIPPED', output = $3::jsonb WHERE execution_id = $1 AND seq = $2`, [executionId, seq, JSON.stringify(output)]);
  }

  /** Adds the email a SEND_EMAIL step queued to its record's output (inside the step's commit). */
  async recordEmail(em: EntityManager, executionId: string, seq: number, emailId: string | null): Promise<void> {
    await em.query(`UPDATE workflow_execution_steps SET output = output || jsonb_build_object('emailId', $3::text) WHERE execution_id = $1 AND seq = $2`, [
      executionId,
      seq,
      emailId,
    ]);
  }
}
