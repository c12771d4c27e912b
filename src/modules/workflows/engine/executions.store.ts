import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { StatementRunner } from '../../../platform/database/statement-runner';
import type { StepRef } from '../../../platform/queues/queues';
import type { ExecutionStatus } from '../entities/workflow-execution.entity';
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

  /** Adds the email a SEND_EMAIL step queued to its record's output (inside the step's commit). */
  async recordEmail(em: EntityManager, executionId: string, seq: number, emailId: string | null): Promise<void> {
    await em.query(`UPDATE workflow_execution_steps SET output = output || jsonb_build_object('emailId', $3::text) WHERE execution_id = $1 AND seq = $2`, [
      executionId,
      seq,
      emailId,
    ]);
  }
}
