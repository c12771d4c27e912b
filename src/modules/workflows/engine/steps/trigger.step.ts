import { Injectable } from '@nestjs/common';
import type { StepContext, StepExecutor, StepOutcome } from '../step-executor';

/** TRIGGER: the entry step; it records the event that started the workflow. */
@Injectable()
export class TriggerStep implements StepExecutor {
  readonly type = 'TRIGGER';
  readonly control = true;

  async execute({ step }: StepContext): Promise<StepOutcome> {
    return { kind: 'next', status: 'COMPLETED', output: { eventName: step.config.eventName ?? null }, exit: null };
  }
}
