import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ImportRowError } from '../csv/import-rows';
import { importJobIds } from '../job-id';
import type { ImportJobRow, ImportJobStatus } from '../import-jobs.rows';

export class ImportJobResponse {
  @ApiProperty({ description: 'Job id', type: String })
  jobId!: string;
  @ApiProperty({ description: "queued, processing, completed or failed", type: String })
  status!: ImportJobStatus;
  @ApiProperty({ description: "Data rows in the file", type: Number })
  totalRows!: number;
  @ApiProperty({ description: "Rows processed so far", type: Number })
  processedRows!: number;
  @ApiProperty({ description: "New contacts created", type: Number })
  imported!: number;
  @ApiProperty({ description: "Existing contacts updated", type: Number })
  updated!: number;
  @ApiProperty({ description: "Rows skipped (invalid or duplicate)", type: Number })
  skipped!: number;
  @ApiProperty({ description: "Rows that were not imported: row number (1 = first data row after the header) and reason", type: "array", items: { type: "object", additionalProperties: true } })
  errors!: ImportRowError[];
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'When the job finished', type: String, nullable: true })
  completedAt!: string | null;
  @ApiPropertyOptional({ description: 'Why the job failed', type: String })
  failureReason?: string;
}

export function toImportJobResponse(row: ImportJobRow, errors: ImportRowError[]): ImportJobResponse {
  const response: ImportJobResponse = {
    jobId: importJobIds.toWire(row.id),
    status: row.status,
    totalRows: row.total_rows,
    processedRows: row.processed_rows,
    imported: row.imported,
    updated: row.updated,
    skipped: row.skipped,
    errors,
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
  if (row.status === 'failed' && row.failure_reason) response.failureReason = row.failure_reason;
  return response;
}
