import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { type ExecutionStepStatus, WorkflowExecution } from './workflow-execution.entity';
import type { StepType } from './workflow-step.entity';

@Entity('workflow_execution_steps')
export class WorkflowExecutionStep {
  @ForeignKey(() => WorkflowExecution, { name: 'workflow_execution_steps_execution_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  executionId: string;
  @PrimaryColumn('int') seq: number;
  @Column('uuid') stepId: string;
  @Column('text') type: StepType;
  @Column('text') status: ExecutionStepStatus;
  @Column('jsonb', { nullable: true }) output: unknown;
  @Column('text', { nullable: true }) error: string | null;
  @Column('timestamptz', { default: () => 'now()' }) startedAt: Date;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
}
