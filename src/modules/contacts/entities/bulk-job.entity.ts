import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Project } from '../../projects';
import type { BulkItemError, BulkOperation } from '../bulk/bulk-plan';
import type { BulkJobStatus } from '../bulk/bulk-jobs.rows';

/**
 * A bulk subscribe / unsubscribe / delete (BulkService and BulkRunner write it with SQL).
 * `contactIds` keeps the ids exactly as sent; `processed` counts how many of them are done.
 */
@Entity('bulk_jobs')
/** `(project_id, created_at DESC)`: TypeORM cannot declare a descending key, so it leaves this index to the migration. */
@Index('bulk_jobs_project_created_idx', { synchronize: false })
export class BulkJob {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'bulk_jobs_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') operation: BulkOperation;
  @Column('text', { default: 'queued' }) status: BulkJobStatus;
  @Column('jsonb') contactIds: string[];
  @Column('integer', { default: 0 }) processed: number;
  @Column('integer', { default: 0 }) successCount: number;
  @Column('integer', { default: 0 }) unchangedCount: number;
  @Column('integer', { default: 0 }) failureCount: number;
  @Column('jsonb', { default: [] }) errors: Array<{ contactId: string; error: BulkItemError }>;
  @Column('text', { nullable: true }) failureReason: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) startedAt: Date | null;
  @Column('timestamptz', { nullable: true }) finishedAt: Date | null;
}
