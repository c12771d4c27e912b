import type { OffsetPage } from '../../../platform/http/pagination';
import type { WorkflowExecutionStep } from '../entities/workflow-execution-step.entity';
import type { WorkflowExecution } from '../entities/workflow-execution.entity';
import type { WorkflowStep } from '../entities/workflow-step.entity';
import type { WorkflowTransition } from '../entities/workflow-transition.entity';
import type { Workflow } from '../entities/workflow.entity';

export const toStepResponse = (s: WorkflowStep) => ({ id: s.id, type: s.type, name: s.name, config: s.config, position: s.position ?? null });
export type StepResponse = ReturnType<typeof toStepResponse>;

export const toTransitionResponse = (t: WorkflowTransition) => ({
  id: t.id,
  fromStepId: t.fromStepId,
  toStepId: t.toStepId,
  branch: t.branch,
  waitOutcome: t.waitOutcome,
});
export type TransitionResponse = ReturnType<typeof toTransitionResponse>;

export const toWorkflowResponse = (w: Workflow, steps: WorkflowStep[], transitions: WorkflowTransition[]) => ({
  id: w.id,
  name: w.name,
  description: w.description,
  triggerType: w.triggerType,
  triggerConfig: { eventName: w.eventName },
  enabled: w.enabled,
  allowReentry: w.allowReentry,
  steps: steps.map(toStepResponse),
  transitions: transitions.map(toTransitionResponse),
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});
export type WorkflowResponse = ReturnType<typeof toWorkflowResponse>;
export type WorkflowPage = OffsetPage<WorkflowResponse>;

export const toExecutionStepResponse = (s: WorkflowExecutionStep) => ({
  stepId: s.stepId,
  type: s.type,
  status: s.status,
  startedAt: s.startedAt.toISOString(),
  completedAt: s.completedAt?.toISOString() ?? null,
  output: s.output ?? null,
  error: s.error,
});

export const toExecutionResponse = (e: WorkflowExecution, steps?: WorkflowExecutionStep[]) => ({
  id: e.id,
  workflowId: e.workflowId,
  contactId: e.contactId,
  status: e.status,
  currentStepId: e.currentStepId,
  exitReason: e.exitReason,
  context: e.context,
  startedAt: e.startedAt.toISOString(),
  completedAt: e.completedAt?.toISOString() ?? null,
  ...(steps ? { steps: steps.map(toExecutionStepResponse) } : {}),
});
export type ExecutionResponse = ReturnType<typeof toExecutionResponse>;
