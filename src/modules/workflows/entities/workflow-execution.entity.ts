import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { WaitOutcome } from './workflow-transition.entity';

/** Persisted values: renaming one strands the executions that carry it. */
export const EXECUTION_STATUSES = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const ACTIVE_STATUSES: ExecutionStatus[] = ['RUNNING', 'WAITING'];

@Entity('workflow_executions')
export class WorkflowExecution {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('uuid') workflowId: string;
  @Column('int') version: number;
  @Column('text') contactId: string;
  @Column('text', { default: 'RUNNING' }) status: ExecutionStatus;
  @Column('uuid', { nullable: true }) currentStepId: string | null;
  /** Steps run so far; the step job of number `stepsRun` is the only one that may advance it. */
  @Column('int', { default: 0 }) stepsRun: number;
  @Column('text', { nullable: true }) exitReason: string | null;
  @Column('jsonb', { default: () => "'{}'::jsonb" }) context: Record<string, unknown>;
  /** The trigger event's data (`event.*` variables). */
  @Column('jsonb', { default: () => "'{}'::jsonb" }) event: Record<string, unknown>;
  @Column('uuid', { nullable: true }) triggerEventId: string | null;
  /** When a WAITING execution resumes (DELAY end, WAIT_FOR_EVENT timeout, or now once its event came). */
  @Column('timestamptz', { nullable: true }) wakeAt: Date | null;
  @Column('text', { nullable: true }) waitEvent: string | null;
  @Column('timestamptz', { nullable: true }) waitSince: Date | null;
  @Column('text', { nullable: true }) waitOutcome: WaitOutcome | null;
  @Column('timestamptz', { default: () => 'now()' }) startedAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
}
