import { Injectable } from '@nestjs/common';
import type { StepRef } from '../../../platform/queues/queues';
import { ACTIVE_STATUSES, type ExecutionStatus, type ExecutionStepStatus } from '../entities/workflow-execution.entity';
import type { StepType } from '../entities/workflow-step.entity';
import type { WaitOutcome } from '../entities/workflow-transition.entity';
import { GraphStep, nextStepId, stepOf, WorkflowGraph } from '../graph/workflow-graph';
import type { AdvanceRow, StartPlan, Started, WakeRow } from './executions.store';
import { ExecutionRow, MAX_STEPS_PER_EXECUTION, Reached, StepOutcome } from './step-executor';
import { StepExecutors } from './steps/step-executors';
import { WorkflowQueue } from './workflow-queue';

/** Where one step's outcome takes its execution: the row `ExecutionsStore.advance` commits, and what follows once it did. */
export interface Move {
  ex: ExecutionRow;
  graph: WorkflowGraph;
  step: GraphStep | null;
  row: AdvanceRow;
  status: ExecutionStatus;
  stepStatus: ExecutionStepStatus;
  next: string | null;
  waitSeconds: number | null;
}

/** Where a due wait resumes to: the row `ExecutionsStore.wake` commits, and where the execution goes on once it did (null when it ends). */
export interface Resume {
  row: WakeRow;
  onward: Reached | null;
}

/**
 * What runs next and when: the step an outcome leads to, whether it runs on in the job that
 * reached it (a control step, `StepExecutor.control`) or in a job of its own, and the jobs and
 * timers (through `WorkflowQueue`) of those that go on later.
 */
@Injectable()
export class StepScheduler {
  constructor(
    private readonly executors: StepExecutors,
    private readonly queue: WorkflowQueue,
  ) {}

  /** The execution's current step is a control step the job that reached it runs (under the step limit: past it, its own job FAILS it). */
  runsInline({ ex, graph }: Reached): boolean {
    const step = stepOf(graph, ex.current_step_id);
    return ex.steps_run < MAX_STEPS_PER_EXECUTION && step !== undefined && this.executors.of(step.type)?.control === true;
  }

  /** Where the step's outcome takes the execution, as a row of the store's advance. */
  move(ex: ExecutionRow, seq: number, step: GraphStep | null, outcome: StepOutcome, graph: WorkflowGraph, startedAt: Date): Move {
    const next = outcome.kind === 'next' && step ? nextStepId(graph, step.id, outcome.exit) : null;
    const status: ExecutionStatus = outcome.kind === 'wait' ? 'WAITING' : outcome.kind === 'end' ? outcome.execution : next ? 'RUNNING' : 'COMPLETED';
    const stepStatus: ExecutionStepStatus = outcome.kind === 'wait' ? 'WAITING' : outcome.status;
    const wait = outcome.kind === 'wait' ? outcome : null;
    const row: AdvanceRow = {
      id: ex.id,
      seq,
      status,
      next,
      exit_reason: outcome.kind === 'end' ? outcome.exitReason : null,
      wait_seconds: wait?.waitSeconds ?? null,
      wait_event: wait?.waitEvent ?? null,
      step_id: step?.id ?? null,
      type: step?.type ?? null,
      step_status: stepStatus,
      output: outcome.output ?? null,
      error: outcome.kind === 'end' ? outcome.error : null,
      started_at: startedAt.toISOString(),
    };
    return { ex, graph, step, row, status, stepStatus, next, waitSeconds: wait?.waitSeconds ?? null };
  }

  /** Where a committed move leaves the execution when it goes on (RUNNING at a next step); null when it waits or ended. */
  after(m: Move): Reached | null {
    return m.status === 'RUNNING' && m.next !== null ? { ex: { ...m.ex, steps_run: m.ex.steps_run + 1, current_step_id: m.next }, graph: m.graph } : null;
  }

  /** The move a control step (`runsInline`) makes from where the execution stands: control steps read nothing, so this plans it. */
  async planControl({ ex, graph }: Reached, now: Date): Promise<Move> {
    const step = stepOf(graph, ex.current_step_id)!;
    const outcome = await this.executors.of(step.type)!.execute({ step, ex, outside: (task) => task() });
    return this.move(ex, ex.steps_run, step, outcome, graph, now);
  }

  /** A version's `StartPlan`: its control steps from the TRIGGER on, as a new execution would move through them. */
  async planStart(workflowId: string, version: number, graph: WorkflowGraph, now: Date): Promise<{ plan: StartPlan; moves: Move[] }> {
    const trigger = graph.steps.find((s) => s.type === 'TRIGGER')?.id ?? null;
    const fresh: ExecutionRow = {
      id: '',
      project_id: '',
      workflow_id: workflowId,
      version,
      contact_id: '',
      status: 'RUNNING',
      current_step_id: trigger,
      steps_run: 0,
      context: {},
      event: {},
      wake_at: null,
      wait_outcome: null,
    };
    const moves: Move[] = [];
    for (let at: Reached | null = { ex: fresh, graph }; at && this.runsInline(at); at = this.after(moves.at(-1)!)) moves.push(await this.planControl(at, now));
    const last = moves.at(-1);
    const plan: StartPlan = {
      workflow_id: workflowId,
      version,
      status: last?.status ?? 'RUNNING',
      current_step_id: last ? (last.next ?? last.step?.id ?? null) : trigger,
      steps_run: moves.length,
      exit_reason: last?.row.exit_reason ?? null,
      wait_seconds: last?.waitSeconds ?? null,
      wait_event: last?.row.wait_event ?? null,
      records: [],
      ended_records: null,
    };
    if (!ACTIVE_STATUSES.includes(plan.status)) {
      // It never changes again: its records are written in its row, as the API shows them.
      const completedAt = now.toISOString();
      plan.ended_records = moves.map(({ row }) => ({
        stepId: row.step_id as string,
        type: row.type as StepType,
        status: row.step_status as ExecutionStepStatus,
        startedAt: row.started_at,
        completedAt,
        output: row.output ?? null,
        error: row.error ?? null,
      }));
    } else {
      plan.records = moves.map(({ row: { seq, step_id, type, step_status, output, error, started_at } }) => ({ seq, step_id, type, step_status, output, error, started_at }));
    }
    return { plan, moves };
  }

  /** Where a due wait resumes to: a WAIT_FOR_EVENT by its outcome (the event came, or the timeout), a DELAY to its next step. */
  resume({ ex, graph }: Reached): Resume {
    const step = stepOf(graph, ex.current_step_id);
    const outcome: WaitOutcome | null = step?.type === 'WAIT_FOR_EVENT' ? (ex.wait_outcome ?? 'TIMEOUT') : null;
    const next = step ? nextStepId(graph, step.id, outcome ? { waitOutcome: outcome } : null) : null;
    const row: WakeRow = {
      id: ex.id,
      seq: ex.steps_run,
      wait_outcome: ex.wait_outcome,
      status: next ? 'RUNNING' : 'COMPLETED',
      next,
      output: outcome ? { outcome } : { resumedAt: new Date().toISOString() },
    };
    return { row, onward: next ? { ex: { ...ex, status: 'RUNNING' as const, current_step_id: next }, graph } : null };
  }

  /** Jobs for executions moved on to a step with effects; a failed enqueue is left to the sweep (the state is in the database). */
  async enqueue(reached: Reached[]): Promise<void> {
    if (reached.length) await this.queue.stepsOrLeaveForSweep(reached.map(refOf));
  }

  /** Wake-up timers of committed moves that wait with a timeout; a lost one is the sweep's. */
  async timers(moves: Move[]): Promise<void> {
    const waits = moves.filter((m) => m.waitSeconds);
    if (waits.length) await this.queue.wakes(waits.map((m) => ({ executionId: m.ex.id, seq: m.ex.steps_run + 1, delayMs: m.waitSeconds! * 1000 })), 't').catch(() => undefined);
  }

  /** After planned starts were inserted: those RUNNING at a step with effects get their (grouped) jobs, those waiting their timers. */
  async started(planned: Array<{ plan: StartPlan }>, started: Started[]): Promise<void> {
    const steps: StepRef[] = [];
    const wakes: Array<StepRef & { delayMs: number }> = [];
    for (const { workflow_id, ids } of started) {
      const { plan } = planned.find((p) => p.plan.workflow_id === workflow_id)!;
      for (const executionId of ids) {
        if (plan.status === 'RUNNING') steps.push({ executionId, seq: plan.steps_run });
        else if (plan.wait_seconds) wakes.push({ executionId, seq: plan.steps_run, delayMs: plan.wait_seconds * 1000 });
      }
    }
    if (wakes.length) await this.queue.wakes(wakes, 't').catch(() => undefined);
    await this.queue.groupedSteps(steps);
  }
}

export const refOf = ({ ex }: Reached): StepRef => ({ executionId: ex.id, seq: ex.steps_run });
