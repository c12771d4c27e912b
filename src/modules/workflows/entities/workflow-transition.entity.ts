import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Persisted values of `branch` (from CONDITION) and `waitOutcome` (from WAIT_FOR_EVENT). */
export type Branch = 'yes' | 'no';
export type WaitOutcome = 'EVENT' | 'TIMEOUT';

@Entity('workflow_transitions')
export class WorkflowTransition {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') workflowId: string;
  @Column('uuid') fromStepId: string;
  @Column('uuid') toStepId: string;
  @Column('text', { nullable: true }) branch: Branch | null;
  @Column('text', { nullable: true }) waitOutcome: WaitOutcome | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
