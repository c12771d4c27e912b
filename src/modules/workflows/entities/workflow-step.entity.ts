import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Persisted values: renaming one strands the steps (and execution records) that carry it. */
export const STEP_TYPES = ['TRIGGER', 'SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT'] as const;
export type StepType = (typeof STEP_TYPES)[number];

@Entity('workflow_steps')
export class WorkflowStep {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workflowId: string;
  @Column('text') type: StepType;
  @Column('text', { nullable: true }) name: string | null;
  @Column('jsonb', { default: () => "'{}'::jsonb" }) config: Record<string, unknown>;
  @Column('jsonb', { nullable: true }) position: unknown;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
