import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Contact } from '../../contacts';
import { Workflow } from './workflow.entity';
import type { StepType } from './workflow-step.entity';
import type { WaitOutcome } from './workflow-transition.entity';

/** Persisted values: renaming one strands the executions that carry it. */
export const EXECUTION_STATUSES = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const ACTIVE_STATUSES: ExecutionStatus[] = ['RUNNING', 'WAITING'];

/** Persisted values of a step record's status. */
export type ExecutionStepStatus = 'COMPLETED' | 'SKIPPED' | 'WAITING' | 'FAILED' | 'CANCELLED';

/** A step record as the API shows it (`ExecutionStepResponse`), the shape `records` keeps. */
export interface ExecutionStepRecord {
  stepId: string;
  type: StepType;
  status: ExecutionStepStatus;
  startedAt: string;
  completedAt: string | null;
  output: unknown;
  error: string | null;
}

@Entity('workflow_executions')
/**
 * A contact never has two active executions of one workflow; an event starts a workflow once (an
 * event has one contact, so the contact in the key changes nothing of that rule, and lets the
 * same index answer whether a contact ever entered the workflow).
 */
@Index('workflow_executions_active_key', ['workflowId', 'contactId'], { unique: true, where: "status IN ('RUNNING', 'WAITING')" })
@Index('workflow_executions_trigger_key', ['workflowId', 'contactId', 'triggerEventId'], { unique: true })
@Index('workflow_executions_due_idx', ['wakeAt'], { where: "status = 'WAITING'" })
@Index('workflow_executions_waiting_event_idx', ['projectId', 'waitEvent', 'contactId'], { where: "status = 'WAITING' AND wait_event IS NOT NULL" })
@Index('workflow_executions_stale_idx', ['updatedAt'], { where: "status = 'RUNNING'" })
/** A contact's executions, newest first (its timeline). */
@Index('workflow_executions_contact_idx', ['projectId', 'contactId', 'startedAt'])
/** `(workflow_id, started_at DESC, id)`: TypeORM cannot declare a descending key, so it leaves this index to the migration. */
@Index('workflow_executions_list_idx', { synchronize: false })
export class WorkflowExecution {
  @PrimaryGeneratedColumn('uuid') id: string;
  /** Its workflow's project (no key of its own: deleting the project deletes the workflow, whose key deletes this). */
  @Column('uuid')
  projectId: string;
  @ForeignKey(() => Workflow, { name: 'workflow_executions_workflow_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  workflowId: string;
  @Column('int') version: number;
  @ForeignKey(() => Contact, { name: 'workflow_executions_contact_id_fkey', onDelete: 'CASCADE' })
  @Column('text')
  contactId: string;
  @Column('text', { default: 'RUNNING' }) status: ExecutionStatus;
  @Column('uuid', { nullable: true }) currentStepId: string | null;
  /** Steps run so far; the step job of number `stepsRun` is the only one that may advance it. */
  @Column('int', { default: 0 }) stepsRun: number;
  @Column('text', { nullable: true }) exitReason: string | null;
  @Column('jsonb', { default: {} }) context: Record<string, unknown>;
  /** The trigger event's data (`event.*` variables). */
  @Column('jsonb', { default: {} }) event: Record<string, unknown>;
  @Column('uuid', { nullable: true }) triggerEventId: string | null;
  /** When a WAITING execution resumes (DELAY end, WAIT_FOR_EVENT timeout, or now once its event came). */
  @Column('timestamptz', { nullable: true }) wakeAt: Date | null;
  @Column('text', { nullable: true }) waitEvent: string | null;
  @Column('timestamptz', { nullable: true }) waitSince: Date | null;
  @Column('text', { nullable: true }) waitOutcome: WaitOutcome | null;
  @Column('timestamptz', { default: () => 'now()' }) startedAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
  /**
   * The step records of an execution that ended within its start (`WorkflowEngine.start`: its
   * control steps led to an end), as the API shows them; it never changes again, so they are
   * written here instead of as `workflow_execution_steps` rows. Null otherwise: records are rows.
   */
  @Column('jsonb', { nullable: true }) records: ExecutionStepRecord[] | null;
}
