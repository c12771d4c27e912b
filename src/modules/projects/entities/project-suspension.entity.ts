import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Project } from './project.entity';

/**
 * A project disabled for its email reputation (SecurityService writes these with SQL). `reason`
 * holds persisted values: 'EMAIL_REPUTATION'.
 */
@Entity('project_suspensions')
/** `(project_id, created_at DESC)`: TypeORM cannot declare a descending key, so it leaves this index to the migration. */
@Index('project_suspensions_project_idx', { synchronize: false })
export class ProjectSuspension {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'project_suspensions_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') reason: string;
  /** The window's counts and rates when the project was disabled. */
  @Column('integer') emailCount: number;
  @Column('integer') bounceCount: number;
  @Column('integer') complaintCount: number;
  @Column('double precision') bounceRate: number;
  @Column('double precision') complaintRate: number;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) liftedAt: Date | null;
}
