import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Project } from '../../projects';

/** Persisted values: renaming one strands the workflows that carry it. */
export const TRIGGER_TYPES = ['EVENT', 'MANUAL'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

@Entity('workflows')
@Index('workflows_trigger_idx', ['projectId', 'eventName'], { where: 'enabled' })
/** `(project_id, created_at DESC, id)`: TypeORM cannot declare a descending key, so it leaves this index to the migration. */
@Index('workflows_project_created_idx', { synchronize: false })
export class Workflow {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'workflows_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { default: 'EVENT' }) triggerType: TriggerType;
  @Column('text', { nullable: true }) eventName: string | null;
  @Column('boolean', { default: false }) enabled: boolean;
  @Column('boolean', { default: false }) allowReentry: boolean;
  /** Grows with every change of the graph; executions run against `workflow_versions` of theirs. */
  @Column('int', { default: 1 }) version: number;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
