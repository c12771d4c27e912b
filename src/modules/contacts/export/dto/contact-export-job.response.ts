import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { exportJobIds } from '../../import/job-id';
import type { ContactExportFormat, ContactExportRow, ContactExportStatus } from '../contact-exports.rows';

export class ContactExportQueuedResponse {
  @ApiProperty({ description: 'Export id: poll GET /contacts/export/{jobId}', type: String })
  jobId!: string;
  @ApiProperty({ description: 'queued', enum: ['queued'] })
  status!: 'queued';
}

export class ContactExportJobResponse {
  @ApiProperty({ description: 'Export id', type: String })
  id!: string;
  @ApiProperty({ description: 'queued, running, completed or failed', enum: ['queued', 'running', 'completed', 'failed'] })
  status!: ContactExportStatus;
  @ApiProperty({ description: 'csv or ndjson', enum: ['csv', 'ndjson'] })
  format!: ContactExportFormat;
  @ApiProperty({ description: 'Contacts written so far (all of them once completed)', type: Number })
  rows!: number;
  @ApiProperty({ description: 'Where to download the file (same credentials), once completed; null before', type: String, nullable: true })
  downloadUrl!: string | null;
  @ApiProperty({ description: 'Creation time (ISO 8601); the export is deleted 7 days later', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'When the export finished (ISO 8601), or null', type: String, nullable: true })
  completedAt!: string | null;
  @ApiPropertyOptional({ description: 'Why the export failed', type: String })
  failureReason?: string;
}

export function toContactExportJobResponse(row: ContactExportRow): ContactExportJobResponse {
  const id = exportJobIds.toWire(row.id);
  const response: ContactExportJobResponse = {
    id,
    status: row.status,
    format: row.format,
    rows: row.row_count,
    downloadUrl: row.status === 'completed' ? `/contacts/export/${id}/download` : null,
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
  if (row.status === 'failed' && row.failure_reason) response.failureReason = row.failure_reason;
  return response;
}
