import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ProjectRole } from '../../auth/principal';

@Entity('project_members')
export class ProjectMember {
  @PrimaryColumn('uuid') projectId: string;
  @PrimaryColumn('uuid') userId: string;
  @Column('text') role: ProjectRole;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
