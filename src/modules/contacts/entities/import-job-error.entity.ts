import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import type { ImportRowReason } from '../import/csv/import-rows';
import { ImportJob } from './import-job.entity';

/** A file row an import did not take (1 = first data row after the header). */
@Entity('import_job_errors')
export class ImportJobError {
  @ForeignKey(() => ImportJob, { name: 'import_job_errors_job_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  jobId: string;
  @PrimaryColumn('integer') rowNumber: number;
  @Column('text') email: string;
  @Column('text') reason: ImportRowReason;
}
