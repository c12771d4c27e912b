import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Project } from '../../projects';
import type { ColumnMapping } from '../import/csv/csv-values';
import type { ImportJobStatus } from '../import/import-jobs.rows';

/**
 * A CSV import (ImportService and ImportRunner write it with SQL). The uploaded file lives in the
 * row until the job finishes; `cursorRow` is the last file row whose batch committed.
 */
@Entity('import_jobs')
/** `(project_id, created_at DESC)`: TypeORM cannot declare a descending key, so it leaves this index to the migration. */
@Index('import_jobs_project_created_idx', { synchronize: false })
export class ImportJob {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'import_jobs_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text', { default: 'queued' }) status: ImportJobStatus;
  @Column('text', { nullable: true }) fileName: string | null;
  @Column('integer') fileSize: number;
  @Column('bytea', { nullable: true }) file: Buffer | null;
  /** The upload's column mapping (header → key or null), applied by the runner; null: keys derived from the headers. */
  @Column('jsonb', { nullable: true }) columnMapping: ColumnMapping | null;
  @Column('integer', { default: 0 }) totalRows: number;
  @Column('integer', { default: 0 }) processedRows: number;
  @Column('integer', { default: 1 }) cursorRow: number;
  @Column('integer', { default: 0 }) imported: number;
  @Column('integer', { default: 0 }) updated: number;
  @Column('integer', { default: 0 }) skipped: number;
  @Column('text', { nullable: true }) failureReason: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) startedAt: Date | null;
  @Column('timestamptz', { nullable: true }) finishedAt: Date | null;
}
