import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Workflow } from './workflow.entity';

/** Persisted values: renaming one strands the steps (and execution records) that carry it. */
export const STEP_TYPES = ['TRIGGER', 'SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT'] as const;
export type StepType = (typeof STEP_TYPES)[number];

@Entity('workflow_steps')
@Index('workflow_steps_workflow_idx', ['workflowId', 'createdAt'])
export class WorkflowStep {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Workflow, { name: 'workflow_steps_workflow_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  workflowId: string;
  @Column('text') type: StepType;
  @Column('text', { nullable: true }) name: string | null;
  @Column('jsonb', { default: {} }) config: Record<string, unknown>;
  @Column('jsonb', { nullable: true }) position: unknown;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
