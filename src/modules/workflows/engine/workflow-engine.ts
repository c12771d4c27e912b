import { HttpException, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ConcurrencyLimit } from '../../../platform/batching/concurrency-limit';
import { logger } from '../../../platform/logging/logger';
import { appMetrics } from '../../../platform/metrics/metrics';
import type { StepRef } from '../../../platform/queues/queues';
import { BillingLimitExceeded } from '../../billing';
import type { ExecutionStatus } from '../entities/workflow-execution.entity';
import { GraphStep, stepOf, WorkflowGraph } from '../graph/workflow-graph';
import { WorkflowsService } from '../workflows.service';
import { StepRefused } from './errors';
import { ExecutionsStore, StartPlan, Started } from './executions.store';
import { ExecutionRow, failed, MAX_STEPS_PER_EXECUTION, Reached, StepOutcome, StepWritten } from './step-executor';
import { Move, refOf, StepScheduler } from './step-scheduler';
import { StepExecutors } from './steps/step-executors';

/**
 * Runs executions step by step, a job per step with effects (control steps run on in the job
 * that reached them): loads the execution (`ExecutionsStore`), runs its step's executor
 * (`StepExecutors`), commits the outcome through the store and asks the `StepScheduler` what
 * runs next. The store moves an execution only from the state its job expects, and the step's
 * record, the execution's advance and the step's own writes (an email row) commit together, so
 * a retried or duplicated job finds its step done.
 */
@Injectable()
export class WorkflowEngine {
  private readonly log = logger('workflow-engine');
  private readonly graphs = new Map<string, WorkflowGraph>();
  /**
   * `WORKFLOW_CONCURRENCY`: executions this process runs a step of at once, from single and
   * grouped jobs alike; the rest wait their turn, so a burst of events that starts thousands of
   * executions does not take the connections and CPU that requests need. A WEBHOOK step gives
   * its slot up while it waits for the remote server.
   */
  private readonly slots: ConcurrencyLimit;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly workflows: WorkflowsService,
    private readonly store: ExecutionsStore,
    private readonly scheduler: StepScheduler,
    private readonly executors: StepExecutors,
  ) {
    this.slots = new ConcurrencyLimit(config.workflowConcurrency);
  }

  /** Step number `seq` of the execution (a job of the `workflow-step` queue). */
  runStep(executionId: string, seq: number): Promise<void> {
    return this.slots.run(() => this.runStepNow(executionId, seq));
  }

  private async runStepNow(executionId: string, seq: number): Promise<void> {
    for (const reached of await this.loadAt([{ executionId, seq }], 'RUNNING')) await this.runFrom(reached);
  }

  /**
   * Starts executions: each workflow version's control steps are planned once (`StartPlan`),
   * `insert` writes every execution in the state its plan leads to, with the step records, and
   * answers what started; then those RUNNING at a step with effects get their jobs, those
   * waiting their timers.
   */
  async start(workflows: Array<{ id: string; version: number }>, insert: (plans: StartPlan[]) => Promise<Started[]>): Promise<void> {
    if (workflows.length === 0) return;
    const now = new Date();
    const planned = await Promise.all(workflows.map(async (w) => this.scheduler.planStart(w.id, w.version, await this.graph(w.id, w.version), now)));
    const started = await insert(planned.map((p) => p.plan));
    for (const { workflow_id, n } of started) {
      for (const m of planned.find((p) => p.plan.workflow_id === workflow_id)!.moves) if (m.step) appMetrics.workflowStep(m.step.type, m.stepStatus, n);
    }
    await this.scheduler.started(planned, started);
  }

  /**
   * Step number `seq` of each execution of a group (loaded in one statement); the steps that
   * failed, to go on alone in jobs of their own (with their retries and last-attempt FAIL).
   */
  async runSteps(items: StepRef[]): Promise<StepRef[]> {
    const found = await this.loadAt(items, 'RUNNING');
    const control = found.filter((r) => this.scheduler.runsInline(r));
    const again: StepRef[] = [];
    await Promise.all([
      // Control steps of the whole group: one statement per round, in one slot.
      (control.length ? this.slots.run(() => this.runControlSteps(control)) : Promise.resolve()).catch((err: unknown) => {
        this.log.warn({ err, count: control.length }, 'the control steps of a group failed; they go on alone');
        again.push(...control.map(refOf));
      }),
      ...found
        .filter((f) => !control.includes(f))
        .map(async (reached) => {
          try {
            await this.slots.run(() => this.runFrom(reached));
          } catch (err) {
            this.log.warn({ err, executionId: reached.ex.id, seq: reached.ex.steps_run }, 'a step of a group failed; it goes on alone');
            again.push(refOf(reached));
          }
        }),
    ]);
    return again;
  }

  /**
   * Control steps of one or many executions, set-based: every step is planned (they read
   * nothing) and all move in one statement, whose failure is the caller's; where they lead goes
   * on through `onward` (the next round, or the jobs of steps with effects). Runs in the
   * caller's slot.
   */
  private async runControlSteps(group: Reached[]): Promise<void> {
    if (group.length === 0) return;
    const moves = await Promise.all(group.map((reached) => this.scheduler.planControl(reached, new Date())));
    const moved = await this.store.advance(moves.map((m) => m.row));
    const done = moves.filter((m) => moved.has(m.ex.id));
    for (const m of done) if (m.step) appMetrics.workflowStep(m.step.type, m.stepStatus);
    await this.scheduler.timers(done);
    await this.onward(done.flatMap((m) => this.scheduler.after(m) ?? []));
  }

  /**
   * Executions this job moved to their next step (committed): control steps run on here, the
   * others get a job each. The steps reached are not this job's, so a failure of theirs does not
   * fail it: they go on in jobs of their own, with retries.
   */
  private async onward(reached: Reached[]): Promise<void> {
    const inline = reached.filter((r) => this.scheduler.runsInline(r));
    await this.scheduler.enqueue(reached.filter((r) => !inline.includes(r)));
    await this.runControlSteps(inline).catch(async (err: unknown) => {
      this.log.warn({ err, count: inline.length }, 'control steps run inline failed; they get jobs of their own');
      await this.scheduler.enqueue(inline);
    });
  }

  /**
   * Resumes WAITING executions that are due (a DELAY ended, an event came, or a wait timed out),
   * a group in one statement; where each resumes to goes on through `onward`.
   */
  wake(items: StepRef[]): Promise<void> {
    return this.slots.run(() => this.wakeNow(items));
  }

  private async wakeNow(items: StepRef[]): Promise<void> {
    const plans = (await this.loadAt(items, 'WAITING')).filter(({ ex }) => ex.wake_at).map((reached) => this.scheduler.resume(reached));
    if (plans.length === 0) return;
    const resumed = await this.store.wake(plans.map((p) => p.row));
    await this.onward(plans.flatMap((p) => (p.onward && resumed.has(p.row.id) ? [p.onward] : [])));
  }

  /**
   * Runs the execution's current step, the job's own (its failure is the job's, with retries),
   * then goes on from the step it reached (`onward`).
   */
  private async runFrom(reached: Reached): Promise<void> {
    if (this.scheduler.runsInline(reached)) return this.runControlSteps([reached]);
    const { ex, graph } = reached;
    const next = await this.runOne(ex, graph);
    if (next) await this.onward([{ ex: { ...ex, steps_run: ex.steps_run + 1, current_step_id: next }, graph }]);
  }

  /** Runs and commits the current step, one with effects (control steps go through `runControlSteps`); the next step's id when the execution moved on to it. */
  private async runOne(ex: ExecutionRow, graph: WorkflowGraph): Promise<string | null> {
    const seq = ex.steps_run;
    const step = stepOf(graph, ex.current_step_id);
    if (!step) return this.commit(ex, seq, null, { kind: 'next', status: 'COMPLETED', output: null, exit: null }, graph, new Date());
    const startedAt = new Date();
    const outcome = seq >= MAX_STEPS_PER_EXECUTION ? failed(`more than ${MAX_STEPS_PER_EXECUTION} steps in one execution`) : await this.execute(step, ex);
    return this.commit(ex, seq, step, outcome, graph, startedAt);
  }

  /** The last attempt of a step job failed: the execution FAILS with the error on its step record. */
  async failStep(executionId: string, seq: number, error: string): Promise<void> {
    for (const { ex, graph } of await this.loadAt([{ executionId, seq }], 'RUNNING')) {
      await this.commit(ex, seq, stepOf(graph, ex.current_step_id) ?? null, failed(error), graph, new Date());
    }
  }

  private async execute(step: GraphStep, ex: ExecutionRow): Promise<StepOutcome> {
    const executor = this.executors.of(step.type);
    if (!executor) return failed(`unknown step type ${step.type as string}`);
    try {
      return await executor.execute({ step, ex, outside: (task) => this.slots.outside(task) });
    } catch (err) {
      // A refusal of the request itself (deleted template or contact, data that cannot be stored) fails the execution.
      if (err instanceof StepRefused || (err instanceof HttpException && err.getStatus() >= 400 && err.getStatus() < 500)) return failed(err.message);
      throw err;
    }
  }

  /**
   * Records the step and moves the execution on, only if it is still where this job found it
   * (a cancel or another run of this job in between leaves everything as it is). The next
   * step's id when the execution is RUNNING on to it (the caller runs or enqueues it).
   */
  private async commit(ex: ExecutionRow, seq: number, step: GraphStep | null, outcome: StepOutcome, graph: WorkflowGraph, startedAt: Date): Promise<string | null> {
    const move = this.scheduler.move(ex, seq, step, outcome, graph, startedAt);
    let committed: Partial<StepWritten> | null;
    try {
      committed = await this.advance(move, outcome);
    } catch (err) {
      // The project is over its billing limit: the step FAILS with BILLING_LIMIT_EXCEEDED (nothing of it was written).
      if (err instanceof BillingLimitExceeded && outcome.kind === 'next' && outcome.write) {
        return this.commit(ex, seq, step, failed(`BILLING_LIMIT_EXCEEDED: ${err.message}`), graph, startedAt);
      }
      throw err;
    }
    if (!committed) return null;
    if (step) appMetrics.workflowStep(step.type, committed.skipped ? 'SKIPPED' : move.stepStatus);
    await committed.after?.();
    return move.status === 'RUNNING' ? move.next : null;
  }

  /** The move committed, with the step's own writes (SEND_EMAIL) in its transaction; null when another run got there first or it was cancelled. */
  private async advance(move: Move, outcome: StepOutcome): Promise<Partial<StepWritten> | null> {
    const write = outcome.kind === 'next' ? outcome.write : undefined;
    if (write) return (await this.store.advanceWith(move.row, write))?.after ?? null;
    return (await this.store.advance([move.row])).has(move.ex.id) ? {} : null;
  }

  /** The executions still in `status` at the step number each ref expects, with their graphs. */
  private async loadAt(items: StepRef[], status: ExecutionStatus): Promise<Reached[]> {
    const found: Reached[] = [];
    for (const ex of await this.store.loadAt(items, status)) found.push({ ex, graph: await this.graph(ex.workflow_id, ex.version) });
    return found;
  }

  /** Versions are immutable, so a process keeps the graphs it has read (bounded). */
  private async graph(workflowId: string, version: number): Promise<WorkflowGraph> {
    const key = `${workflowId}:${version}`;
    let graph = this.graphs.get(key);
    if (!graph) {
      graph = await this.workflows.graph(workflowId, version);
      if (this.graphs.size >= 1_000) this.graphs.delete(this.graphs.keys().next().value as string);
      this.graphs.set(key, graph);
    }
    return graph;
  }
}
