import { Injectable } from '@nestjs/common';
import { ConditionEvaluator } from '../condition-evaluator';
import type { StepContext, StepExecutor, StepOutcome } from '../step-executor';
import { storedConfig } from '../../graph/step-config';

/** CONDITION: takes the `yes` or `no` branch by the condition on the contact, the event or the context. */
@Injectable()
export class ConditionStep implements StepExecutor {
  readonly type = 'CONDITION';
  /** It reads the database, which can fail: a job of its own, with retries. */
  readonly control = false;

  constructor(private readonly conditions: ConditionEvaluator) {}

  async execute({ step, ex }: StepContext): Promise<StepOutcome> {
    const c = storedConfig(step, 'CONDITION');
    const result = await this.conditions.evaluate(ex.project_id, ex.contact_id, { field: c.field, operator: c.operator, value: c.value }, {
      event: ex.event,
      workflow: ex.context,
    });
    return { kind: 'next', status: 'COMPLETED', output: { result }, exit: { branch: result ? 'yes' : 'no' } };
  }
}
