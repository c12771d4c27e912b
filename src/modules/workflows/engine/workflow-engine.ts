import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ConcurrencyLimit } from '../../../platform/batching/concurrency-limit';
import { logger } from '../../../platform/logging/logger';
import type { StepRef } from '../../../platform/queues/queues';
import { StatementRunner } from '../../../platform/database/statement-runner';
import { appMetrics } from '../../../platform/metrics/metrics';
import { BillingService } from '../../billing/billing.service';
import { ContactsService } from '../../contacts/contacts.service';
import { EmailQueueFacade, emailIds as queuedIds } from '../../emails/email-queue.facade';
import { ProjectsService } from '../../projects/projects.service';
import { TemplatesService } from '../../templates/templates.service';
import type { Contact } from '../../contacts/entities/contact.entity';
import { ACTIVE_STATUSES, type ExecutionStatus } from '../entities/workflow-execution.entity';
import type { StepType } from '../entities/workflow-step.entity';
import type { ExecutionStepResponse } from '../dto/workflow.response';
import type { ExecutionStepStatus } from '../entities/workflow-execution-step.entity';
import type { WaitOutcome } from '../entities/workflow-transition.entity';
import { delaySeconds } from '../graph/step-config';
import { Exit, GraphStep, nextStepId, stepOf, WorkflowGraph } from '../graph/workflow-graph';
import { WorkflowsService } from '../workflows.service';
import { WebhookStep } from '../webhook/webhook-step';
import { ConditionEvaluator } from './condition-evaluator';
import { WorkflowQueue } from './workflow-queue';

/** decisions.md: an execution that runs more than 1,000 steps FAILS (a loop in the graph). */
export const MAX_STEPS_PER_EXECUTION = 1_000;

/**
 * Steps that act on the execution row alone and cannot fail on their own: the job that reaches
 * one runs it at once instead of enqueueing a job for it (a job per step costs more than these
 * steps). Steps with effects outside the row (email, webhook, contact) or reads that can fail
 * (a condition) keep a job of their own, with its retries. A chain of them always ends: EXIT
 * ends the execution, DELAY and WAIT_FOR_EVENT wait, TRIGGER is only first.
 */
const INLINE_STEPS: ReadonlySet<string> = new Set(['TRIGGER', 'EXIT', 'DELAY', 'WAIT_FOR_EVENT']);

interface Reached {
  ex: ExecutionRow;
  graph: WorkflowGraph;
}

/** The execution's current step is a control step this job runs on (under the step limit: past it, its own job FAILS it). */
const runsInline = ({ ex, graph }: Reached): boolean => ex.steps_run < MAX_STEPS_PER_EXECUTION && INLINE_STEPS.has(stepOf(graph, ex.current_step_id)?.type ?? '');

/** Where a committed move leaves the execution when it goes on (RUNNING at a next step); null when it waits or ended. */
const afterMove = (m: Move): Reached | null =>
  m.status === 'RUNNING' && m.next !== null ? { ex: { ...m.ex, steps_run: m.ex.steps_run + 1, current_step_id: m.next }, graph: m.graph } : null;

interface ExecutionRow {
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

/** One row of `ADVANCE_SQL`, and what the caller does once it moved. */
interface Move {
  ex: ExecutionRow;
  graph: WorkflowGraph;
  step: GraphStep | null;
  row: Record<string, unknown>;
  status: ExecutionStatus;
  stepStatus: ExecutionStepStatus;
  next: string | null;
  waitSeconds: number | null;
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
  ended_records: ExecutionStepResponse[] | null;
}

/** What the insert of planned starts answers, per workflow: how many started, and the ids of those that go on (a job, a timer). */
export interface Started {
  workflow_id: string;
  n: number;
  ids: string[];
}

/** What running one step decided. `write` runs inside the commit (exactly once); its result runs after it. */
export type StepOutcome =
  | { kind: 'next'; status: 'COMPLETED' | 'SKIPPED'; output: unknown; exit: Exit; write?: (em: EntityManager) => Promise<() => Promise<void>> }
  | { kind: 'wait'; output: unknown; waitSeconds: number | null; waitEvent: string | null }
  | { kind: 'end'; execution: 'EXITED' | 'FAILED'; status: ExecutionStepStatus; output: unknown; error: string | null; exitReason: string | null };

export const failed = (error: string, output: unknown = null): StepOutcome => ({ kind: 'end', execution: 'FAILED', status: 'FAILED', output, error, exitReason: null });

/**
 * Runs executions step by step, a job per step with effects (control steps run on in the job
 * that reached them, see `INLINE_STEPS`). The execution row is the truth: a step runs only when
 * the execution is in the state its job expects (RUNNING with `steps_run = seq`, or WAITING and
 * due), and the step's record, the execution's advance and the step's own writes (an email row)
 * commit together under that condition, so a retried or duplicated job finds its step done.
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
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
    private readonly workflows: WorkflowsService,
    private readonly queue: WorkflowQueue,
    private readonly contacts: ContactsService,
    private readonly templates: TemplatesService,
    private readonly emails: EmailQueueFacade,
    private readonly projects: ProjectsService,
    private readonly webhooks: WebhookStep,
    private readonly conditions: ConditionEvaluator,
    private readonly billing: BillingService,
    private readonly statements: StatementRunner,
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
    const planned = await Promise.all(workflows.map(async (w) => this.planStart(w.id, w.version, now)));
    const started = await insert(planned.map((p) => p.plan));
    const steps: StepRef[] = [];
    const wakes: Array<StepRef & { delayMs: number }> = [];
    for (const { workflow_id, n, ids } of started) {
      const { plan, moves } = planned.find((p) => p.plan.workflow_id === workflow_id)!;
      for (const m of moves) if (m.step) appMetrics.workflowStep(m.step.type, m.stepStatus, n);
      for (const executionId of ids) {
        if (plan.status === 'RUNNING') steps.push({ executionId, seq: plan.steps_run });
        else if (plan.wait_seconds) wakes.push({ executionId, seq: plan.steps_run, delayMs: plan.wait_seconds * 1000 });
      }
    }
    if (wakes.length) await this.queue.wakes(wakes, 't').catch(() => undefined);
    await this.queue.groupedSteps(steps);
  }

  /** A version's `StartPlan`: its control steps from the TRIGGER on, as `runControlSteps` would move a new execution. */
  private async planStart(workflowId: string, version: number, now: Date): Promise<{ plan: StartPlan; moves: Move[] }> {
    const graph = await this.graph(workflowId, version);
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
    for (let at: Reached | null = { ex: fresh, graph }; at && runsInline(at); at = afterMove(moves.at(-1)!)) moves.push(await this.planControl(at, now));
    const last = moves.at(-1);
    const plan: StartPlan = {
      workflow_id: workflowId,
      version,
      status: last?.status ?? 'RUNNING',
      current_step_id: last ? (last.next ?? last.step?.id ?? null) : trigger,
      steps_run: moves.length,
      exit_reason: (last?.row.exit_reason as string | null | undefined) ?? null,
      wait_seconds: last?.waitSeconds ?? null,
      wait_event: (last?.row.wait_event as string | null | undefined) ?? null,
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
        startedAt: row.started_at as string,
        completedAt,
        output: row.output ?? null,
        error: (row.error as string | null) ?? null,
      }));
    } else {
      plan.records = moves.map(({ row: { seq, step_id, type, step_status, output, error, started_at } }) => ({ seq, step_id, type, step_status, output, error, started_at }));
    }
    return { plan, moves };
  }

  /**
   * Step number `seq` of each execution of a group (loaded in one statement); the steps that
   * failed, to go on alone in jobs of their own (with their retries and last-attempt FAIL).
   */
  async runSteps(items: StepRef[]): Promise<StepRef[]> {
    const found = await this.loadAt(items, 'RUNNING');
    const control = found.filter(runsInline);
    const again: StepRef[] = [];
    await Promise.all([
      // Control steps of the whole group: one statement per round, in one slot.
      (control.length ? this.slots.run(() => this.runControlSteps(control)) : Promise.resolve()).catch((err: unknown) => {
        this.log.warn({ err, count: control.length }, 'the control steps of a group failed; they go on alone');
        again.push(...control.map(({ ex }) => ({ executionId: ex.id, seq: ex.steps_run })));
      }),
      ...found
        .filter((f) => !control.includes(f))
        .map(async ({ ex, graph }) => {
          try {
            await this.slots.run(() => this.runFrom({ ex, graph }));
          } catch (err) {
            this.log.warn({ err, executionId: ex.id, seq: ex.steps_run }, 'a step of a group failed; it goes on alone');
            again.push({ executionId: ex.id, seq: ex.steps_run });
          }
        }),
    ]);
    return again;
  }

  /**
   * Control steps (`INLINE_STEPS`) of one or many executions, set-based: every step is planned
   * (they read nothing) and all move in one statement, whose failure is the caller's; where
   * they lead goes on through `onward` (the next round, or the jobs of steps with effects).
   * Runs in the caller's slot.
   */
  private async runControlSteps(group: Reached[]): Promise<void> {
    if (group.length === 0) return;
    const moves = await Promise.all(group.map((reached) => this.planControl(reached, new Date())));
    const moved = new Set((await this.statements.run<{ id: string }>(ADVANCE_SQL, [JSON.stringify(moves.map((m) => m.row))])).map((r) => r.id));
    const done = moves.filter((m) => moved.has(m.ex.id));
    for (const m of done) if (m.step) appMetrics.workflowStep(m.step.type, m.stepStatus);
    const waits = done.filter((m) => m.waitSeconds);
    if (waits.length) await this.queue.wakes(waits.map((m) => ({ executionId: m.ex.id, seq: m.ex.steps_run + 1, delayMs: m.waitSeconds! * 1000 })), 't').catch(() => undefined);
    await this.onward(done.flatMap((m) => afterMove(m) ?? []));
  }

  /** The move a control step (`runsInline`) makes from where the execution stands. */
  private async planControl({ ex, graph }: Reached, now: Date): Promise<Move> {
    const step = stepOf(graph, ex.current_step_id)!;
    return this.plan(ex, ex.steps_run, step, await this.execute(step, ex), graph, now);
  }

  /**
   * Executions this job moved to their next step (committed): control steps run on here, the
   * others get a job each. The steps reached are not this job's, so a failure of theirs does not
   * fail it: they go on in jobs of their own, with retries.
   */
  private async onward(reached: Reached[]): Promise<void> {
    const inline = reached.filter(runsInline);
    const jobs = reached.filter((r) => !inline.includes(r));
    if (jobs.length) await this.queue.stepsOrLeaveForSweep(jobs.map(({ ex }) => ({ executionId: ex.id, seq: ex.steps_run })));
    await this.runControlSteps(inline).catch(async (err: unknown) => {
      this.log.warn({ err, count: inline.length }, 'control steps run inline failed; they get jobs of their own');
      await this.queue.stepsOrLeaveForSweep(inline.map(({ ex }) => ({ executionId: ex.id, seq: ex.steps_run })));
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
    const plans = (await this.loadAt(items, 'WAITING'))
      .filter(({ ex }) => ex.wake_at)
      .map(({ ex, graph }) => {
        const step = stepOf(graph, ex.current_step_id);
        const outcome: WaitOutcome | null = step?.type === 'WAIT_FOR_EVENT' ? (ex.wait_outcome ?? 'TIMEOUT') : null;
        const next = step ? nextStepId(graph, step.id, outcome ? { waitOutcome: outcome } : null) : null;
        const row = {
          id: ex.id,
          seq: ex.steps_run,
          wait_outcome: ex.wait_outcome,
          status: next ? 'RUNNING' : 'COMPLETED',
          next,
          output: outcome ? { outcome } : { resumedAt: new Date().toISOString() },
        };
        return { row, onward: next ? { ex: { ...ex, status: 'RUNNING' as const, current_step_id: next }, graph } : null };
      });
    if (plans.length === 0) return;
    const resumed = new Set((await this.statements.run<{ id: string }>(WAKE_SQL, [JSON.stringify(plans.map((p) => p.row))])).map((r) => r.id));
    await this.onward(plans.flatMap((p) => (p.onward && resumed.has(p.row.id) ? [p.onward] : [])));
  }

  /**
   * Runs the execution's current step, the job's own (its failure is the job's, with retries),
   * then goes on from the step it reached (`onward`).
   */
  private async runFrom(reached: Reached): Promise<void> {
    if (runsInline(reached)) return this.runControlSteps([reached]);
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
    const c = step.config;
    try {
      switch (step.type) {
        case 'TRIGGER':
          return { kind: 'next', status: 'COMPLETED', output: { eventName: c.eventName ?? null }, exit: null };
        case 'DELAY':
          return { kind: 'wait', output: null, waitSeconds: delaySeconds(c), waitEvent: null };
        case 'WAIT_FOR_EVENT':
          return { kind: 'wait', output: null, waitSeconds: typeof c.timeout === 'number' ? c.timeout : null, waitEvent: c.eventName as string };
        case 'EXIT':
          return { kind: 'end', execution: 'EXITED', status: 'COMPLETED', output: null, error: null, exitReason: (c.reason as string | undefined) ?? null };
        case 'CONDITION': {
          const result = await this.conditions.evaluate(ex.project_id, ex.contact_id, { field: c.field as string, operator: c.operator as string, value: c.value }, {
            event: ex.event,
            workflow: ex.context,
          });
          return { kind: 'next', status: 'COMPLETED', output: { result }, exit: { branch: result ? 'yes' : 'no' } };
        }
        case 'UPDATE_CONTACT': {
          const action = c.subscriptionAction ?? 'none';
          const updated = await this.contacts.patch(ex.project_id, ex.contact_id, {
            data: (c.updates as Record<string, never> | undefined) ?? undefined,
            subscribed: action === 'subscribe' ? true : action === 'unsubscribe' ? false : undefined,
          });
          return { kind: 'next', status: 'COMPLETED', output: { subscribed: updated.subscribed, updated: Object.keys((c.updates as object) ?? {}) }, exit: null };
        }
        case 'SEND_EMAIL':
          return await this.sendEmail(step, ex);
        case 'WEBHOOK': {
          const contact = await this.contact(ex);
          const project = await this.projects.findById(ex.project_id);
          const workflow = await this.workflows.findOne(ex.project_id, ex.workflow_id);
          // The request's wait (up to its timeout and retries) holds no slot: it is not this process's work.
          return await this.slots.outside(() =>
            this.webhooks.run(step, { ...ex, workflowName: workflow.name, contact }, project.webhookSecret, this.config.webhookAllowPrivate),
          );
        }
      }
    } catch (err) {
      const status = (err as { getStatus?: () => number }).getStatus?.();
      // A refusal of the request itself (deleted template or contact, data that cannot be stored) fails the execution.
      if (status !== undefined && status >= 400 && status < 500) return failed((err as Error).message);
      throw err;
    }
    return failed(`unknown step type ${step.type as string}`);
  }

  /** SEND_EMAIL through the email pipeline: the template's type rules, variables = contact data + `event` + `workflow`. */
  private async sendEmail(step: GraphStep, ex: ExecutionRow): Promise<StepOutcome> {
    const template = await this.templates.findOne(ex.project_id, step.config.templateId as string);
    const contact = await this.contact(ex);
    const reason = await this.emails.skipReasonFor(ex.project_id, template.type, contact);
    if (reason) return { kind: 'next', status: 'SKIPPED', output: { skipped: reason }, exit: null };
    const variables = { ...contact.data, event: ex.event, workflow: ex.context };
    let emailIds: string[] = [];
    return {
      kind: 'next',
      status: 'COMPLETED',
      output: { templateId: template.id },
      exit: null,
      write: async (em) => {
        await this.billing.consume(em, ex.project_id, 'workflows', 1);
        emailIds = queuedIds(
          await this.emails.queueForRecipients(
            ex.project_id,
            { type: template.type, fromAddress: template.fromAddress, content: { templateId: template.id, subject: template.subject, body: template.body, fromName: template.fromName, replyTo: template.replyTo } },
            [{ contactId: contact.id, email: contact.email, name: null, subscribed: contact.subscribed, variables }],
            em,
          ),
        );
        await em.query(`UPDATE workflow_execution_steps SET output = output || jsonb_build_object('emailId', $3::text) WHERE execution_id = $1 AND seq = $2`, [
          ex.id,
          ex.steps_run,
          emailIds[0] ?? null,
        ]);
        return () => this.emails.enqueue(emailIds, template.type).catch((err: unknown) => this.log.warn({ err }, 'email enqueue failed; the email sweep sends it'));
      },
    };
  }

  /**
   * Records the step and moves the execution on, only if it is still where this job found it
   * (a cancel or another run of this job in between leaves everything as it is). The next
   * step's id when the execution is RUNNING on to it (the caller runs or enqueues it).
   */
  private async commit(ex: ExecutionRow, seq: number, step: GraphStep | null, outcome: StepOutcome, graph: WorkflowGraph, startedAt: Date): Promise<string | null> {
    const move = this.plan(ex, seq, step, outcome, graph, startedAt);
    let after: (() => Promise<void>) | undefined;
    let advanced: boolean;
    try {
      advanced = await this.advance(move, outcome.kind === 'next' ? outcome.write : undefined, (a) => (after = a));
    } catch (err) {
      // The project is over its billing limit: the step FAILS with BILLING_LIMIT_EXCEEDED (nothing of it was written).
      if ((err as { code?: string }).code === 'BILLING_LIMIT_EXCEEDED' && outcome.kind === 'next' && outcome.write) {
        return this.commit(ex, seq, step, failed(`BILLING_LIMIT_EXCEEDED: ${(err as Error).message}`), graph, startedAt);
      }
      throw err;
    }
    if (!advanced) return null;
    if (step) appMetrics.workflowStep(step.type, move.stepStatus);
    await after?.();
    return move.status === 'RUNNING' ? move.next : null;
  }

  /** Where the step's outcome takes the execution, as a row of `ADVANCE_SQL`. */
  private plan(ex: ExecutionRow, seq: number, step: GraphStep | null, outcome: StepOutcome, graph: WorkflowGraph, startedAt: Date): Move {
    const next = outcome.kind === 'next' && step ? nextStepId(graph, step.id, outcome.exit) : null;
    const status: ExecutionStatus = outcome.kind === 'wait' ? 'WAITING' : outcome.kind === 'end' ? outcome.execution : next ? 'RUNNING' : 'COMPLETED';
    const stepStatus: ExecutionStepStatus = outcome.kind === 'wait' ? 'WAITING' : outcome.status;
    const wait = outcome.kind === 'wait' ? outcome : null;
    const row = {
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

  /**
   * The step record and the execution's move in one statement, under the condition that the
   * execution is still RUNNING at step `seq`; a step with writes of its own (SEND_EMAIL) adds
   * them in the same transaction. False when another run got there first or it was cancelled.
   */
  private async advance(move: Move, write: ((em: EntityManager) => Promise<() => Promise<void>>) | undefined, setAfter: (after: () => Promise<void>) => void): Promise<boolean> {
    const params = [JSON.stringify([move.row])];
    if (!write) return (await this.statements.run<{ id: string }>(ADVANCE_SQL, params)).length > 0;
    return this.dataSource.transaction(async (em) => {
      if ((await this.statements.run<{ id: string }>(ADVANCE_SQL, params, em)).length === 0) return false;
      setAfter(await write(em));
      return true;
    });
  }

  /** The executions (one statement) still in `status` at the step number each ref expects, with their graphs. */
  private async loadAt(items: StepRef[], status: ExecutionStatus): Promise<Reached[]> {
    const seqs = new Map(items.map((i) => [i.executionId, i.seq]));
    const rows: ExecutionRow[] = await this.dataSource.query(`${LOAD_SQL} WHERE id = ANY($1::uuid[])`, [[...seqs.keys()]]);
    const found: Reached[] = [];
    for (const ex of rows) if (ex.status === status && ex.steps_run === seqs.get(ex.id)) found.push({ ex, graph: await this.graph(ex.workflow_id, ex.version) });
    return found;
  }

  private async contact(ex: ExecutionRow): Promise<Contact> {
    const contact = await this.contacts.findById(ex.project_id, ex.contact_id);
    if (!contact) throw Object.assign(new Error('the contact no longer exists'), { getStatus: () => 404 });
    return contact;
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
