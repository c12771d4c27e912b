import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { FilterTree } from '../filter/filter.types';

/** Persisted values. */
export type SegmentType = 'DYNAMIC' | 'STATIC';

@Entity('segments')
export class Segment {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') projectId: string;
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
