/** Persisted in import_jobs.status. */
export type ImportJobStatus = 'queued' | 'processing' | 'completed' | 'failed';

/** One import job as `ImportJobsRepository` reads it; `toImportJobResponse` maps it to the API. */
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
