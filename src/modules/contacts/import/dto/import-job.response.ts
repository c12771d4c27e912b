import type { ImportRowError } from '../csv/import-rows';
import { importJobIds } from '../job-id';

/** Persisted in import_jobs.status. */
export type ImportJobStatus = 'queued' | 'processing' | 'completed' | 'failed';

/** Row shape of the import job queries. */
export interface ImportJobRow {
  id: string;
  status: ImportJobStatus;
  total_rows: number;
  processed_rows: number;
  imported: number;
  updated: number;
  skipped: number;
  failure_reason: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}

export interface ImportJobResponse {
  jobId: string;
  status: ImportJobStatus;
  totalRows: number;
  processedRows: number;
  imported: number;
  updated: number;
  skipped: number;
  errors: ImportRowError[];
  createdAt: string;
  completedAt: string | null;
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
