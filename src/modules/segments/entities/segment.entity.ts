import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Project } from '../../projects';
import type { FilterTree } from '../../filters';

/** Persisted values. */
export type SegmentType = 'DYNAMIC' | 'STATIC';

@Entity('segments')
/** `(project_id, created_at DESC, id)`: TypeORM cannot declare a descending key, so it leaves this index to the migration. */
@Index('segments_project_created_idx', { synchronize: false })
export class Segment {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'segments_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') type: SegmentType;
  @Column('jsonb', { nullable: true }) condition: FilterTree | null;
  @Column('boolean', { default: false }) trackMembership: boolean;
  @Column('integer', { default: 0 }) memberCount: number;
  @Column('timestamptz', { nullable: true }) computedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
