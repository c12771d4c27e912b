import { STEP_TYPES } from '../../entities/workflow-step.entity';
import type { StepExecutor } from '../step-executor';
import { StepExecutors } from './step-executors';

const executor = (type: string): StepExecutor => ({ type, control: false, execute: jest.fn() }) as unknown as StepExecutor;

describe('StepExecutors', () => {
  it('maps each step type to its executor; a type no version knows has none', () => {
    const all = STEP_TYPES.map(executor);
    const executors = new StepExecutors(all);
    for (const [i, type] of STEP_TYPES.entries()) expect(executors.of(type)).toBe(all[i]);
    expect(executors.of('TELEPORT')).toBeUndefined();
  });

  it('refuses to start with a step type missing or served twice', () => {
    expect(() => new StepExecutors(STEP_TYPES.filter((t) => t !== 'WEBHOOK').map(executor))).toThrow('no step executor for WEBHOOK');
    expect(() => new StepExecutors([...STEP_TYPES.map(executor), executor('EXIT')])).toThrow('two step executors for EXIT');
  });
});
