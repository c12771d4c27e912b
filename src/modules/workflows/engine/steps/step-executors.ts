import { Inject, Injectable } from '@nestjs/common';
import { STEP_TYPES, type StepType } from '../../entities/workflow-step.entity';
import { STEP_EXECUTORS, type StepExecutor } from '../step-executor';

/** The step executors by type: one for each step type, checked when the module starts. */
@Injectable()
export class StepExecutors {
  private readonly byType = new Map<StepType, StepExecutor>();

  constructor(@Inject(STEP_EXECUTORS) executors: StepExecutor[]) {
    for (const executor of executors) {
      if (this.byType.has(executor.type)) throw new Error(`two step executors for ${executor.type}`);
      this.byType.set(executor.type, executor);
    }
    const missing = STEP_TYPES.filter((t) => !this.byType.has(t));
    if (missing.length) throw new Error(`no step executor for ${missing.join(', ')}`);
  }

  /** The executor of a step type; undefined for a type no version knows (the engine FAILS such a step). */
  of(type: string): StepExecutor | undefined {
    return this.byType.get(type as StepType);
  }
}
