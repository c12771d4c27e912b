import { bulkJobIds } from '../../import/job-id';
import { BulkItemError, BulkOperation, bulkProgress } from '../bulk-plan';

/** Persisted in bulk_jobs.status (same values as import jobs). */
export type BulkJobStatus = 'queued' | 'processing' | 'completed' | 'failed';

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

export interface BulkJobResponse {
  jobId: string;
  operation: BulkOperation;
  status: BulkJobStatus;
  progress: number;
  totalRequested: number;
  successCount: number;
  unchangedCount: number;
  failureCount: number;
  errors: Array<{ contactId: string; error: BulkItemError }>;
  createdAt: string;
  completedAt: string | null;
  failureReason?: string;
}

export function toBulkJobResponse(row: BulkJobRow): BulkJobResponse {
  const response: BulkJobResponse = {
    jobId: bulkJobIds.toWire(row.id),
    operation: row.operation,
    status: row.status,
    progress: row.status === 'completed' ? 100 : Math.min(bulkProgress(row.processed, row.total), 99),
    totalRequested: row.total,
    successCount: row.success_count,
    unchangedCount: row.unchanged_count,
    failureCount: row.failure_count,
    errors: row.errors,
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
  if (row.status === 'failed' && row.failure_reason) response.failureReason = row.failure_reason;
  return response;
}
