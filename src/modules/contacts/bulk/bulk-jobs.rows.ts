import type { BulkItemError, BulkOperation } from './bulk-plan';

/** Persisted in bulk_jobs.status (same values as import jobs). */
export type BulkJobStatus = 'queued' | 'processing' | 'completed' | 'failed';

/** One bulk job as `BulkJobsRepository` reads it; `toBulkJobResponse` maps it to the API. */
export interface BulkJobRow {
  id: string;
  operation: BulkOperation;
  status: BulkJobStatus;
  total: number;
  processed: number;
  success_count: number;
  unchanged_count: number;
  failure_count: number;
  errors: Array<{ contactId: string; error: BulkItemError }>;
  failure_reason: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}
