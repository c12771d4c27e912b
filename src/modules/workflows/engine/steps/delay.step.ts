import { Injectable } from '@nestjs/common';
import { delaySeconds } from '../../graph/step-config';
import type { StepContext, StepExecutor, StepOutcome } from '../step-executor';

/** DELAY: the execution waits its amount of time (a timer wakes it). */
@Injectable()
export class DelayStep implements StepExecutor {
  readonly type = 'DELAY';
  readonly control = true;

  async execute({ step }: StepContext): Promise<StepOutcome> {
    return { kind: 'wait', output: null, waitSeconds: delaySeconds(step.config), waitEvent: null };
  }
}
