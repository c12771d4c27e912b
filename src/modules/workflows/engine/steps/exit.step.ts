import { Injectable } from '@nestjs/common';
import type { StepContext, StepExecutor, StepOutcome } from '../step-executor';
import { storedConfig } from '../../graph/step-config';

/** EXIT: the execution ends EXITED, with the step's reason. */
@Injectable()
export class ExitStep implements StepExecutor {
  readonly type = 'EXIT';
  readonly control = true;

  async execute({ step }: StepContext): Promise<StepOutcome> {
    return { kind: 'end', execution: 'EXITED', status: 'COMPLETED', output: null, error: null, exitReason: storedConfig(step, 'EXIT').reason ?? null };
  }
}
