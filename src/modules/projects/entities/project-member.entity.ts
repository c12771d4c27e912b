import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { ProjectRole } from '../../auth';
import { User } from '../../auth';
import { Project } from './project.entity';

@Entity('project_members')
@Index('project_members_user_idx', ['userId'])
export class ProjectMember {
  @ForeignKey(() => Project, { name: 'project_members_project_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  projectId: string;
  @ForeignKey(() => User, { name: 'project_members_user_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  userId: string;
  @Column('text') role: ProjectRole;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
