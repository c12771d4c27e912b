import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { WorkflowStep } from './workflow-step.entity';
import { Workflow } from './workflow.entity';

/** Persisted values of `branch` (from CONDITION) and `waitOutcome` (from WAIT_FOR_EVENT). */
export type Branch = 'yes' | 'no';
export type WaitOutcome = 'EVENT' | 'TIMEOUT';

@Entity('workflow_transitions')
@Index('workflow_transitions_workflow_idx', ['workflowId'])
export class WorkflowTransition {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Workflow, { name: 'workflow_transitions_workflow_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  workflowId: string;
  @ForeignKey(() => WorkflowStep, { name: 'workflow_transitions_from_step_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  fromStepId: string;
  @ForeignKey(() => WorkflowStep, { name: 'workflow_transitions_to_step_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  toStepId: string;
  @Column('text', { nullable: true }) branch: Branch | null;
  @Column('text', { nullable: true }) waitOutcome: WaitOutcome | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
