import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Project } from '../../projects';
import type { SuppressionReason, SuppressionSource } from '../suppression/suppression.types';

/** A suppressed address of a project (SuppressionService writes it with SQL); sends that respect subscriptions skip it. */
@Entity('suppressions')
export class Suppression {
  @ForeignKey(() => Project, { name: 'suppressions_project_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  projectId: string;
  /** Normalized (trimmed, lower case). */
  @PrimaryColumn('text') email: string;
  @Column('text') reason: SuppressionReason;
  @Column('text') source: SuppressionSource;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
