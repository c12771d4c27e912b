import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Project } from '../../projects';
import type { ContactExportFormat, ContactExportSelection, ContactExportStatus } from '../export/contact-exports.rows';

/**
 * A bulk contact export (ContactExportsRepository writes it with SQL; docs/personal-data.md). Its
 * file is `$DATA_DIR/exports/<id>.<format>`; `attempt` numbers the runs, each writing its own
 * temporary file, so only the newest run can complete the export. Kept 7 days.
 */
@Entity('contact_exports')
@Check('contact_exports_format_check', `format IN ('csv', 'ndjson')`)
@Index('contact_exports_project_created_idx', ['projectId', 'createdAt'])
/** The purge's scan, across projects. */
@Index('contact_exports_created_idx', ['createdAt'])
export class ContactExport {
  @PrimaryGeneratedColumn('uuid') id: string;
  @ForeignKey(() => Project, { name: 'contact_exports_project_id_fkey', onDelete: 'CASCADE' })
  @Column('uuid')
  projectId: string;
  @Column('text') format: ContactExportFormat;
  /** `{}` (every contact), `{segmentId}` or `{filter}`, as requested; compiled when the job runs. */
  @Column('jsonb', { default: () => "'{}'" }) selection: ContactExportSelection;
  @Column('text', { default: 'queued' }) status: ContactExportStatus;
  @Column('integer', { default: 0 }) attempt: number;
  @Column('integer', { default: 0 }) rowCount: number;
  @Column('text', { nullable: true }) failureReason: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) startedAt: Date | null;
  @Column('timestamptz', { nullable: true }) finishedAt: Date | null;
}
