import { ApiProperty, ApiPropertyOptional, OmitType, PickType } from '@nestjs/swagger';
import { TemplatePage, TemplateResponse } from '../../templates';
import type { WorkflowExecutionStep } from '../entities/workflow-execution-step.entity';
import { EXECUTION_STATUSES, type ExecutionStatus, type ExecutionStepRecord, type ExecutionStepStatus, type WorkflowExecution } from '../entities/workflow-execution.entity';
import { STEP_TYPES, type StepType, type WorkflowStep } from '../entities/workflow-step.entity';
import type { Branch, WaitOutcome, WorkflowTransition } from '../entities/workflow-transition.entity';
import { TRIGGER_TYPES, type TriggerType, type Workflow } from '../entities/workflow.entity';
import type { WorkflowField } from '../workflow-fields';
import { STORED_STEP_CONFIG_SCHEMA } from '../graph/step-config';
import { STEP_POSITION } from './workflow.dto';

export class StepResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Step type; TRIGGER is the entry step created with the workflow', enum: STEP_TYPES })
  type!: StepType;
  @ApiProperty({ description: 'Display name', type: String, nullable: true })
  name!: string | null;
  @ApiProperty(STORED_STEP_CONFIG_SCHEMA)
  config!: Record<string, unknown>;
  @ApiProperty({ ...STEP_POSITION, nullable: true })
  position!: unknown;
}

export const toStepResponse = (s: WorkflowStep): StepResponse => ({ id: s.id, type: s.type, name: s.name, config: s.config, position: s.position ?? null });

export class TransitionResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Step it leaves (UUID)', type: String })
  fromStepId!: string;
  @ApiProperty({ description: 'Step it leads to (UUID)', type: String })
  toStepId!: string;
  @ApiProperty({ description: 'Which result of a CONDITION step takes it; null from other steps', enum: ['yes', 'no'], nullable: true })
  branch!: Branch | null;
  @ApiProperty({ description: 'Which end of a WAIT_FOR_EVENT step takes it (the event came, or the timeout); null from other steps', enum: ['EVENT', 'TIMEOUT'], nullable: true })
  waitOutcome!: WaitOutcome | null;
}

export const toTransitionResponse = (t: WorkflowTransition): TransitionResponse => ({
  id: t.id,
  fromStepId: t.fromStepId,
  toStepId: t.toStepId,
  branch: t.branch,
  waitOutcome: t.waitOutcome,
});

export class TriggerConfigResponse {
  @ApiProperty({ description: 'Event that starts an enabled EVENT workflow for its contact', type: String, nullable: true })
  eventName!: string | null;
}

/** id, name, description and the timestamps mean what they mean on a template. */
export class WorkflowResponse extends PickType(TemplateResponse, ['id', 'name', 'description', 'createdAt', 'updatedAt'] as const) {
  @ApiProperty({ description: 'EVENT (started by triggerConfig.eventName) or MANUAL (started only with POST /workflows/:id/executions)', enum: TRIGGER_TYPES })
  triggerType!: TriggerType;
  @ApiProperty({ description: 'Trigger settings', type: () => TriggerConfigResponse })
  triggerConfig!: TriggerConfigResponse;
  @ApiProperty({ description: 'Whether events start executions (false on creation)', type: Boolean })
  enabled!: boolean;
  @ApiProperty({ description: 'Whether a contact may enter again once its previous execution has ended (otherwise at most once ever)', type: Boolean })
  allowReentry!: boolean;
  @ApiProperty({ description: 'Steps, the TRIGGER entry step first', type: () => [StepResponse] })
  steps!: StepResponse[];
  @ApiProperty({ description: 'Transitions between the steps', type: () => [TransitionResponse] })
  transitions!: TransitionResponse[];
}

export const toWorkflowResponse = (w: Workflow, steps: WorkflowStep[], transitions: WorkflowTransition[]): WorkflowResponse => ({
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

/** The offset-list fields, as on every offset list, around workflows. */
export class WorkflowPage extends OmitType(TemplatePage, ['data'] as const) {
  @ApiProperty({ description: 'Workflows of this page, newest first', type: () => [WorkflowResponse] })
  data!: WorkflowResponse[];
}

export class ExecutionEmailResponse {
  @ApiProperty({ description: 'Email (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Subject as rendered for the contact; null until rendered', type: String, nullable: true })
  subject!: string | null;
  @ApiProperty({ description: 'Email status (queued, sending, sent, delivered, bounced, …)', type: String })
  status!: string;
}

export class ExecutionStepResponse implements ExecutionStepRecord {
  @ApiProperty({ description: 'The workflow step run (UUID)', type: String })
  stepId!: string;
  @ApiProperty({ description: 'Its type', enum: STEP_TYPES })
  type!: StepType;
  @ApiProperty({ description: 'COMPLETED, SKIPPED (e.g. a MARKETING email to an unsubscribed contact), WAITING, FAILED or CANCELLED', enum: ['COMPLETED', 'SKIPPED', 'WAITING', 'FAILED', 'CANCELLED'] })
  status!: ExecutionStepStatus;
  @ApiProperty({ description: 'Start (ISO 8601)', type: String })
  startedAt!: string;
  @ApiProperty({ description: 'End (ISO 8601); null while waiting', type: String, nullable: true })
  completedAt!: string | null;
  @ApiProperty({
    description: 'What the step produced, by type: TRIGGER `{eventName}`, CONDITION `{result}`, SEND_EMAIL `{templateId, emailId}` or `{skipped: <reason>}`, WEBHOOK `{status, body}` (the response, body truncated) or `{attempts}`, UPDATE_CONTACT `{subscribed, updated}`; null when nothing',
    type: 'object',
    additionalProperties: true,
    nullable: true,
  })
  output!: unknown;
  @ApiProperty({ description: 'Why the step failed; null otherwise', type: String, nullable: true })
  error!: string | null;
  @ApiPropertyOptional({
    description: 'The email a SEND_EMAIL step queued (`output.emailId`), read with the execution: its subject (null until rendered) and status; only on GET /workflows/:id/executions/:executionId',
    type: () => ExecutionEmailResponse,
    nullable: true,
  })
  email?: ExecutionEmailResponse | null;
}

export const toExecutionStepResponse = (s: WorkflowExecutionStep): ExecutionStepResponse => ({
  stepId: s.stepId,
  type: s.type,
  status: s.status,
  startedAt: s.startedAt.toISOString(),
  completedAt: s.completedAt?.toISOString() ?? null,
  output: s.output ?? null,
  error: s.error,
});

export class ExecutionResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Workflow (UUID)', type: String })
  workflowId!: string;
  @ApiProperty({ description: 'Contact it runs for', type: String })
  contactId!: string;
  @ApiProperty({ description: "That contact's email (read with the execution)", type: String, nullable: true })
  contactEmail!: string | null;
  @ApiProperty({ description: 'RUNNING and WAITING are active (cancellable); COMPLETED, EXITED (an EXIT step), FAILED and CANCELLED are final', enum: EXECUTION_STATUSES })
  status!: ExecutionStatus;
  @ApiProperty({ description: 'Step it is at or ended on (UUID)', type: String, nullable: true })
  currentStepId!: string | null;
  @ApiProperty({ description: "The EXIT step's reason; null otherwise", type: String, nullable: true })
  exitReason!: string | null;
  @ApiProperty({ description: 'While WAITING: when it resumes (ISO 8601; a DELAY end or a WAIT_FOR_EVENT timeout); null otherwise or for a wait without timeout', type: String, nullable: true })
  waitingUntil!: string | null;
  @ApiProperty({ description: 'While WAITING at a WAIT_FOR_EVENT step: the event it waits for; null otherwise', type: String, nullable: true })
  waitingFor!: string | null;
  @ApiProperty({ description: 'Per-execution variables (`workflow.<key>` in conditions and templates)', type: 'object', additionalProperties: true })
  context!: Record<string, unknown>;
  @ApiProperty({ description: 'Start (ISO 8601)', type: String })
  startedAt!: string;
  @ApiProperty({ description: 'End (ISO 8601); null while active', type: String, nullable: true })
  completedAt!: string | null;
  @ApiPropertyOptional({ description: 'Steps run so far, in order; only on GET /workflows/:id/executions/:executionId', type: () => [ExecutionStepResponse] })
  steps?: ExecutionStepResponse[];
}

export const toExecutionResponse = (e: WorkflowExecution & { contactEmail: string | null }, steps?: ExecutionStepResponse[]): ExecutionResponse => ({
  id: e.id,
  workflowId: e.workflowId,
  contactId: e.contactId,
  contactEmail: e.contactEmail,
  status: e.status,
  currentStepId: e.currentStepId,
  exitReason: e.exitReason,
  waitingUntil: e.status === 'WAITING' ? (e.wakeAt?.toISOString() ?? null) : null,
  waitingFor: e.status === 'WAITING' ? e.waitEvent : null,
  context: e.context,
  startedAt: e.startedAt.toISOString(),
  completedAt: e.completedAt?.toISOString() ?? null,
  ...(steps ? { steps } : {}),
});

/** The offset-list fields, as on every offset list, around executions. */
export class ExecutionPage extends OmitType(TemplatePage, ['data'] as const) {
  @ApiProperty({ description: 'Executions of this page (without their steps)', type: () => [ExecutionResponse] })
  data!: ExecutionResponse[];
}

export class WorkflowFieldResponse implements WorkflowField {
  @ApiProperty({ description: 'What a CONDITION step names in `field`: contact.email, contact.subscribed, data.<key>, event.<key> or workflow.<key>', type: String })
  field!: string;
  @ApiProperty({ description: 'Inferred type: string, number, boolean or date', type: String })
  type!: string;
  @ApiProperty({ description: 'contact (contact fields and data), event (keys seen in recent trigger events) or workflow (keys seen in execution contexts)', enum: ['contact', 'event', 'workflow'] })
  source!: 'contact' | 'event' | 'workflow';
}

export class WorkflowFieldsResponse {
  @ApiProperty({ description: 'Fields usable in CONDITION steps', type: () => [WorkflowFieldResponse] })
  fields!: WorkflowFieldResponse[];
}

export class StepCountResponse {
  @ApiProperty({ description: 'Step (UUID)', type: String })
  stepId!: string;
  @ApiProperty({ description: 'Executions RUNNING at it', type: 'integer' })
  running!: number;
  @ApiProperty({ description: 'Executions WAITING at it (a DELAY or WAIT_FOR_EVENT)', type: 'integer' })
  waiting!: number;
}

export class StepCountsResponse {
  @ApiProperty({ description: 'Steps with at least one active execution at them (a step not listed has none)', type: () => [StepCountResponse] })
  steps!: StepCountResponse[];
}

export class CancelAllResponse {
  @ApiProperty({ description: 'Active (RUNNING or WAITING) executions cancelled', type: 'integer' })
  cancelled!: number;
}
