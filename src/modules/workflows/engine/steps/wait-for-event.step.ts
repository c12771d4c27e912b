import { Injectable } from '@nestjs/common';
import type { StepContext, StepExecutor, StepOutcome } from '../step-executor';
import { storedConfig } from '../../graph/step-config';

/** WAIT_FOR_EVENT: the execution waits for its event, up to the timeout when it has one. */
@Injectable()
export class WaitForEventStep implements StepExecutor {
  readonly type = 'WAIT_FOR_EVENT';
  readonly control = true;

  async execute({ step }: StepContext): Promise<StepOutcome> {
    const c = storedConfig(step, 'WAIT_FOR_EVENT');
    return { kind: 'wait', output: null, waitSeconds: typeof c.timeout === 'number' ? c.timeout : null, waitEvent: c.eventName };
  }
}
