import type { EntityManager } from 'typeorm';
import type { ExecutionStatus, ExecutionStepStatus } from '../entities/workflow-execution.entity';
import type { StepType } from '../entities/workflow-step.entity';
import type { WaitOutcome } from '../entities/workflow-transition.entity';
import type { Exit, GraphStep, WorkflowGraph } from '../graph/workflow-graph';

/** docs/decisions.md#workflows: an execution that runs more than 1,000 steps FAILS (a loop in the graph). */
export const MAX_STEPS_PER_EXECUTION = 1_000;

/** An execution as the engine reads it (`ExecutionsStore.loadAt`). */
export interface ExecutionRow {
  id: string;
  project_id: string;
  workflow_id: string;
  version: number;
  contact_id: string;
  status: ExecutionStatus;
  current_step_id: string | null;
  steps_run: number;
  context: Record<string, unknown>;
  event: Record<string, unknown>;
  wake_at: Date | null;
  wait_outcome: WaitOutcome | null;
}

/** An execution where it stands, with the graph of its version. */
export interface Reached {
  ex: ExecutionRow;
  graph: WorkflowGraph;
}

/**
 * What a step's `write` did inside the commit: `after` runs once it committed; `skipped` when the
 * write found it had nothing to do and recorded the step SKIPPED instead (SEND_EMAIL whose
 * recipient the email door's policy refuses).
 */
export interface StepWritten {
  after: () => Promise<void>;
  skipped?: boolean;
}

/** What running one step decided. `write` runs inside the commit (exactly once); its `after` runs after it. */
export type StepOutcome =
  | { kind: 'next'; status: 'COMPLETED' | 'SKIPPED'; output: unknown; exit: Exit; write?: (em: EntityManager) => Promise<StepWritten> }
  | { kind: 'wait'; output: unknown; waitSeconds: number | null; waitEvent: string | null }
  | { kind: 'end'; execution: 'EXITED' | 'FAILED'; status: ExecutionStepStatus; output: unknown; error: string | null; exitReason: string | null };

export const failed = (error: string, output: unknown = null): StepOutcome => ({ kind: 'end', execution: 'FAILED', status: 'FAILED', output, error, exitReason: null });

export interface StepContext {
  step: GraphStep;
  ex: ExecutionRow;
  /** Runs `task` without holding the engine's concurrency slot (a wait on a remote server is not this process's work). */
  outside<T>(task: () => Promise<T>): Promise<T>;
}

/** One step type's behaviour; the engine picks it by `type` (`StepExecutors`). */
export interface StepExecutor {
  readonly type: StepType;
  /**
   * A control step: it acts on the execution row alone and cannot fail on its own, so the job
   * that reaches it runs it at once instead of enqueueing a job for it, and a start plans it
   * ahead (`StepScheduler.planStart`). A chain of them must end (a wait, an end).
   */
  readonly control: boolean;
  execute(ctx: StepContext): Promise<StepOutcome>;
}

/** The Nest token under which the module lists every `StepExecutor` (`StepExecutors` maps them by type). */
export const STEP_EXECUTORS = Symbol('STEP_EXECUTORS');
