import type { GraphStep } from '../../graph/workflow-graph';
import type { ExecutionRow, StepContext } from '../step-executor';
import { DelayStep } from './delay.step';
import { ExitStep } from './exit.step';
import { TriggerStep } from './trigger.step';
import { WaitForEventStep } from './wait-for-event.step';

const ctx = (type: GraphStep['type'], config: Record<string, unknown>): StepContext => ({
  step: { id: 's', type, name: null, config },
  ex: {} as ExecutionRow,
  outside: (task) => task(),
});

describe('control steps: they act on the execution row alone', () => {
  it('TRIGGER completes with its event name', async () => {
    await expect(new TriggerStep().execute(ctx('TRIGGER', { eventName: 'signup' }))).resolves.toEqual({ kind: 'next', status: 'COMPLETED', output: { eventName: 'signup' }, exit: null });
    await expect(new TriggerStep().execute(ctx('TRIGGER', {}))).resolves.toMatchObject({ output: { eventName: null } });
  });

  it('DELAY waits its amount in seconds, for no event', async () => {
    await expect(new DelayStep().execute(ctx('DELAY', { amount: 2, unit: 'hours' }))).resolves.toEqual({ kind: 'wait', output: null, waitSeconds: 7_200, waitEvent: null });
  });

  it('WAIT_FOR_EVENT waits for its event, up to its timeout when it has one', async () => {
    await expect(new WaitForEventStep().execute(ctx('WAIT_FOR_EVENT', { eventName: 'paid', timeout: 600 }))).resolves.toEqual({
      kind: 'wait',
      output: null,
      waitSeconds: 600,
      waitEvent: 'paid',
    });
    await expect(new WaitForEventStep().execute(ctx('WAIT_FOR_EVENT', { eventName: 'paid' }))).resolves.toMatchObject({ waitSeconds: null, waitEvent: 'paid' });
  });

  it('EXIT ends the execution EXITED with its reason', async () => {
    await expect(new ExitStep().execute(ctx('EXIT', { reason: 'done' }))).resolves.toEqual({
      kind: 'end',
      execution: 'EXITED',
      status: 'COMPLETED',
      output: null,
      error: null,
      exitReason: 'done',
    });
    await expect(new ExitStep().execute(ctx('EXIT', {}))).resolves.toMatchObject({ exitReason: null });
  });

  it('each is a control step', () => {
    for (const step of [new TriggerStep(), new DelayStep(), new WaitForEventStep(), new ExitStep()]) expect(step.control).toBe(true);
  });
});
