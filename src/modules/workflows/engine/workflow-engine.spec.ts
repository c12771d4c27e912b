import type { StepType } from '../entities/workflow-step.entity';
import type { WorkflowGraph } from '../graph/workflow-graph';
import { HttpException } from '@nestjs/common';
import { notFound } from '../../../platform/http/app-error';
import { BillingLimitExceeded } from '../../billing/billing.errors';
import { ContactGone } from './errors';
import type { EntityManager } from 'typeorm';
import { automock } from '../../../../test/support/automock';
import { AdvanceRow, ExecutionsStore, StartPlan } from './executions.store';
import type { StepExecutor, StepOutcome } from './step-executor';
import { StepScheduler } from './step-scheduler';
import { ConditionStep } from './steps/condition.step';
import { DelayStep } from './steps/delay.step';
import { ExitStep } from './steps/exit.step';
import { SendEmailStep } from './steps/send-email.step';
import { StepExecutors } from './steps/step-executors';
import { TriggerStep } from './steps/trigger.step';
import { UpdateContactStep } from './steps/update-contact.step';
import { WaitForEventStep } from './steps/wait-for-event.step';
import { WebhookStep } from './steps/webhook.step';
import { WorkflowEngine } from './workflow-engine';

/** A chain of steps s0 → s1 → … of the given types. */
function chain(...types: StepType[]): WorkflowGraph {
  return {
    steps: types.map((type, i) => ({ id: `s${i}`, type, name: null, config: type === 'DELAY' ? { amount: 1, unit: 'minutes' } : {} })),
    transitions: types.slice(1).map((_, i) => ({ from: `s${i}`, to: `s${i + 1}`, branch: null, waitOutcome: null })),
  };
}

const none = {} as never;

/** The module's executors; those with effects have no services here (a job of their own runs them, never these tests). */
const moduleExecutors = (overrides: StepExecutor[] = []): StepExecutors => {
  const all: StepExecutor[] = [
    new TriggerStep(),
    new DelayStep(),
    new WaitForEventStep(),
    new ExitStep(),
    new ConditionStep(none),
    new UpdateContactStep(none),
    new SendEmailStep(none, none, none, none, none),
    new WebhookStep(none, none, none, none, none),
  ];
  return new StepExecutors([...all.filter((e) => !overrides.some((o) => o.type === e.type)), ...overrides]);
};

/**
 * The engine (with its scheduler and executors) over its store's port, an automock keeping one
 * execution row in memory: `advance` moves it as the store promises (only when it is RUNNING at the
 * expected step number), `advanceWith` commits the step's writes with the move or neither, `wake`
 * resumes a due wait. The store's own statements are tested against PostgreSQL (e2e).
 */
function engine(graph: WorkflowGraph, opts: { failAdvanceAt?: number; status?: string; stepsRun?: number; executors?: StepExecutor[] } = {}) {
  const row = {
    id: 'x1',
    project_id: 'p',
    workflow_id: 'w',
    version: 1,
    contact_id: 'c',
    status: opts.status ?? 'RUNNING',
    current_step_id: `s${opts.stepsRun ?? 0}`,
    steps_run: opts.stepsRun ?? 0,
    context: {},
    event: {},
    wake_at: opts.status === 'WAITING' ? new Date() : null,
    wait_outcome: null,
  };
  const advances: Array<{ seq: number; stepType: string | null; status: string; error?: string }> = [];
  const advance = async (rows: AdvanceRow[]): Promise<Set<string>> => {
    const moved = new Set<string>();
    for (const r of rows) {
      if (r.seq === opts.failAdvanceAt) throw new Error('connection lost');
      if (row.status !== 'RUNNING' || row.steps_run !== r.seq) continue;
      Object.assign(row, { steps_run: r.seq + 1, status: r.status, current_step_id: r.next ?? row.current_step_id });
      advances.push({ seq: r.seq, stepType: r.type, status: r.status, ...(r.error ? { error: r.error } : {}) });
      moved.add(row.id);
    }
    return moved;
  };
  const store = automock(ExecutionsStore, {
    loadAt: async (items, status) => (row.status === status && items.some((i) => i.executionId === row.id && i.seq === row.steps_run) ? [{ ...row } as never] : []),
    advance,
    // One transaction: the move and the step's writes, or (when `write` throws) neither.
    advanceWith: async <T>(move: AdvanceRow, write: (em: EntityManager) => Promise<T>) => {
      const saved = { ...row };
      const recorded = advances.length;
      if ((await advance([move])).size === 0) return null;
      try {
        return { after: await write({} as EntityManager) };
      } catch (err) {
        Object.assign(row, saved);
        advances.length = recorded;
        throw err;
      }
    },
    wake: async (rows) => {
      const resumed = new Set<string>();
      for (const r of rows) {
        if (row.status !== 'WAITING' || row.steps_run !== r.seq) continue;
        Object.assign(row, { status: r.status, current_step_id: r.next ?? row.current_step_id, wake_at: null });
        resumed.add(r.id);
      }
      return resumed;
    },
  });
  const queue = { steps: jest.fn(async () => undefined), groupedSteps: jest.fn(async () => undefined), stepsOrLeaveForSweep: jest.fn(async () => undefined), wakes: jest.fn(async () => undefined) };
  const workflows = { graph: async () => graph };
  const executors = moduleExecutors(opts.executors);
  const subject = new WorkflowEngine({ workflowConcurrency: 4 } as never, workflows as never, store, new StepScheduler(executors, queue as never), executors);
  return { subject, row, advances, queue, store };
}

describe('WorkflowEngine: control steps run on in the job that reached them', () => {
  it('runs TRIGGER then EXIT in one job, each committed on its own, enqueueing nothing', async () => {
    const { subject, row, advances, queue } = engine(chain('TRIGGER', 'EXIT'));
    await subject.runStep('x1', 0);
    expect(advances).toEqual([
      { seq: 0, stepType: 'TRIGGER', status: 'RUNNING' },
      { seq: 1, stepType: 'EXIT', status: 'EXITED' },
    ]);
    expect(row.status).toBe('EXITED');
    expect(queue.steps).not.toHaveBeenCalled();
    expect(queue.stepsOrLeaveForSweep).not.toHaveBeenCalled();
  });

  it('stops at a DELAY (its wake-up is a delayed job) and at a step with effects (a job of its own)', async () => {
    const delayed = engine(chain('TRIGGER', 'DELAY', 'EXIT'));
    await delayed.subject.runStep('x1', 0);
    expect(delayed.advances.map((a) => a.status)).toEqual(['RUNNING', 'WAITING']);
    expect(delayed.queue.wakes).toHaveBeenCalledWith([{ executionId: 'x1', seq: 2, delayMs: 60_000 }], 't');

    const effects = engine(chain('TRIGGER', 'SEND_EMAIL', 'EXIT'));
    await effects.subject.runStep('x1', 0);
    expect(effects.advances).toEqual([{ seq: 0, stepType: 'TRIGGER', status: 'RUNNING' }]);
    expect(effects.queue.stepsOrLeaveForSweep).toHaveBeenCalledWith([{ executionId: 'x1', seq: 1 }]);
  });

  it('a wake-up runs the EXIT after the DELAY itself', async () => {
    const { subject, row, advances, queue } = engine(chain('TRIGGER', 'DELAY', 'EXIT'), { status: 'WAITING', stepsRun: 2 });
    row.current_step_id = 's1';
    await subject.wake([{ executionId: 'x1', seq: 2 }]);
    expect(advances).toEqual([{ seq: 2, stepType: 'EXIT', status: 'EXITED' }]);
    expect(queue.steps).not.toHaveBeenCalled();
  });

  it('a wake-up that is stale (already resumed, or at another step) changes nothing', async () => {
    const { subject, advances, store } = engine(chain('TRIGGER', 'DELAY', 'EXIT'), { status: 'WAITING', stepsRun: 2 });
    await subject.wake([{ executionId: 'x1', seq: 1 }]);
    expect(store.wake).not.toHaveBeenCalled();
    expect(advances).toEqual([]);
  });

  it('a wake-up whose next step has effects gives that step a job of its own', async () => {
    const { subject, row, advances, queue } = engine(chain('TRIGGER', 'DELAY', 'SEND_EMAIL'), { status: 'WAITING', stepsRun: 2 });
    row.current_step_id = 's1';
    await subject.wake([{ executionId: 'x1', seq: 2 }]);
    expect(advances).toEqual([]);
    expect(row).toMatchObject({ status: 'RUNNING', current_step_id: 's2' });
    expect(queue.stepsOrLeaveForSweep).toHaveBeenCalledWith([{ executionId: 'x1', seq: 2 }]);
  });

  it("a step that fails after the job's own step is done gets a job of its own (the job's retry would find nothing to do)", async () => {
    const { subject, row, queue } = engine(chain('TRIGGER', 'EXIT'), { failAdvanceAt: 1 });
    await expect(subject.runStep('x1', 0)).resolves.toBeUndefined();
    expect(row).toMatchObject({ status: 'RUNNING', steps_run: 1, current_step_id: 's1' });
    expect(queue.stepsOrLeaveForSweep).toHaveBeenCalledWith([{ executionId: 'x1', seq: 1 }]);
  });

  it("the job's own step failing fails the job (its retries and last-attempt FAIL apply)", async () => {
    const { subject, queue } = engine(chain('TRIGGER', 'EXIT'), { failAdvanceAt: 0 });
    await expect(subject.runStep('x1', 0)).rejects.toThrow('connection lost');
    expect(queue.stepsOrLeaveForSweep).not.toHaveBeenCalled();
  });

  it('a group runs each execution at its step; one whose step fails is handed back to go on alone, a stale one is left', async () => {
    const ok = engine(chain('TRIGGER', 'EXIT'));
    expect(await ok.subject.runSteps([{ executionId: 'x1', seq: 0 }])).toEqual([]);
    expect(ok.row.status).toBe('EXITED');

    const failing = engine(chain('TRIGGER', 'EXIT'), { failAdvanceAt: 0 });
    expect(await failing.subject.runSteps([{ executionId: 'x1', seq: 0 }])).toEqual([{ executionId: 'x1', seq: 0 }]);

    const stale = engine(chain('TRIGGER', 'EXIT'), { stepsRun: 1 });
    expect(await stale.subject.runSteps([{ executionId: 'x1', seq: 0 }])).toEqual([]);
    expect(stale.advances).toEqual([]);
  });
});

describe('WorkflowEngine: an event starts executions already where their control steps lead', () => {
  /** Starts `n` executions of workflow w (version 1) through a fake insert; the plan it was given. */
  async function start(graph: WorkflowGraph, n = 2) {
    const e = engine(graph);
    const plans: StartPlan[] = [];
    await e.subject.start([{ id: 'w', version: 1 }], async (given) => {
      plans.push(...given);
      return n ? [{ workflow_id: 'w', n, ids: given[0].status === 'RUNNING' || given[0].status === 'WAITING' ? Array.from({ length: n }, (_, i) => `x${i}`) : [] }] : [];
    });
    const records = plans[0].records.map((r: Record<string, unknown>) => [r.seq, r.type, r.step_status]);
    return { ...e, plan: plans[0], records };
  }

  it('TRIGGER → EXIT: inserted EXITED with both step records in its row (no record rows), and nothing is enqueued', async () => {
    const { plan, records, queue } = await start(chain('TRIGGER', 'EXIT'));
    expect(plan).toMatchObject({ workflow_id: 'w', version: 1, status: 'EXITED', current_step_id: 's1', steps_run: 2, wait_seconds: null });
    expect(records).toEqual([]);
    expect(plan.ended_records).toEqual([
      { stepId: 's0', type: 'TRIGGER', status: 'COMPLETED', startedAt: expect.any(String), completedAt: expect.any(String), output: { eventName: null }, error: null },
      { stepId: 's1', type: 'EXIT', status: 'COMPLETED', startedAt: expect.any(String), completedAt: expect.any(String), output: null, error: null },
    ]);
    expect(queue.groupedSteps).toHaveBeenCalledWith([]);
    expect(queue.wakes).not.toHaveBeenCalled();
  });

  it('TRIGGER → DELAY: inserted WAITING with its timer, each started one getting its wake-up', async () => {
    const { plan, records, queue } = await start(chain('TRIGGER', 'DELAY', 'EXIT'));
    expect(plan).toMatchObject({ status: 'WAITING', current_step_id: 's1', steps_run: 2, wait_seconds: 60, ended_records: null });
    expect(records).toEqual([
      [0, 'TRIGGER', 'COMPLETED'],
      [1, 'DELAY', 'WAITING'],
    ]);
    expect(queue.wakes).toHaveBeenCalledWith(
      [
        { executionId: 'x0', seq: 2, delayMs: 60_000 },
        { executionId: 'x1', seq: 2, delayMs: 60_000 },
      ],
      't',
    );
  });

  it('a step with effects after the TRIGGER: inserted RUNNING at it, each with a job; a TRIGGER alone completes', async () => {
    const effects = await start(chain('TRIGGER', 'SEND_EMAIL', 'EXIT'));
    expect(effects.plan).toMatchObject({ status: 'RUNNING', current_step_id: 's1', steps_run: 1 });
    expect(effects.queue.groupedSteps).toHaveBeenCalledWith([
      { executionId: 'x0', seq: 1 },
      { executionId: 'x1', seq: 1 },
    ]);

    expect(effects.records).toEqual([[0, 'TRIGGER', 'COMPLETED']]);

    const alone = await start(chain('TRIGGER'));
    expect(alone.plan).toMatchObject({ status: 'COMPLETED', current_step_id: 's0', steps_run: 1 });
    expect(alone.plan.ended_records).toMatchObject([{ stepId: 's0', type: 'TRIGGER', status: 'COMPLETED' }]);
  });

  it('nothing started (the unique rules refused every one): no job, no wake-up', async () => {
    const { queue } = await start(chain('TRIGGER', 'DELAY', 'SEND_EMAIL'), 0);
    expect(queue.wakes).not.toHaveBeenCalled();
    expect(queue.groupedSteps).toHaveBeenCalledWith([]);
  });
});

describe('WorkflowEngine: what a step with effects throws', () => {
  /** An execution at a SEND_EMAIL step whose executor does `run`. */
  const at = (run: () => Promise<StepOutcome>) =>
    engine(chain('SEND_EMAIL', 'EXIT'), { executors: [{ type: 'SEND_EMAIL', control: false, execute: run }] });

  it('a step refused (its contact gone) or a 4xx of a service it calls FAILS the execution with the message', async () => {
    for (const [err, message] of [
      [new ContactGone(), 'the contact no longer exists'],
      [notFound('Template'), 'Template not found'],
    ] as const) {
      const { subject, row, advances } = at(async () => Promise.reject(err));
      await subject.runStep('x1', 0);
      expect(advances).toEqual([{ seq: 0, stepType: 'SEND_EMAIL', status: 'FAILED', error: message }]);
      expect(row.status).toBe('FAILED');
    }
  });

  it('any other error fails the job (its retries apply), the execution left where it was', async () => {
    for (const err of [new Error('connection lost'), new HttpException('unavailable', 503)]) {
      const { subject, row, advances } = at(async () => Promise.reject(err));
      await expect(subject.runStep('x1', 0)).rejects.toBe(err);
      expect(advances).toEqual([]);
      expect(row).toMatchObject({ status: 'RUNNING', steps_run: 0 });
    }
  });

  it('a billing limit met inside the commit FAILS the step, nothing of its writes kept; another error in it fails the job', async () => {
    const writing = (err: Error) => at(async () => ({ kind: 'next', status: 'COMPLETED', output: null, exit: null, write: () => Promise.reject(err) }));
    const over = writing(new BillingLimitExceeded('workflows', 10, 10, 1));
    await over.subject.runStep('x1', 0);
    expect(over.advances).toEqual([
      { seq: 0, stepType: 'SEND_EMAIL', status: 'FAILED', error: "BILLING_LIMIT_EXCEEDED: This would exceed the project's monthly workflows email limit" },
    ]);

    const broken = writing(new Error('disk full'));
    await expect(broken.subject.runStep('x1', 0)).rejects.toThrow('disk full');
    expect(broken.advances).toEqual([]);
    expect(broken.row).toMatchObject({ status: 'RUNNING', steps_run: 0 });
  });

  it('a step type without an executor FAILS the execution', async () => {
    const graph = chain('SEND_EMAIL');
    (graph.steps[0] as { type: string }).type = 'TELEPORT';
    const { subject, advances } = engine(graph);
    await subject.runStep('x1', 0);
    expect(advances).toEqual([{ seq: 0, stepType: 'TELEPORT', status: 'FAILED', error: 'unknown step type TELEPORT' }]);
  });
});
