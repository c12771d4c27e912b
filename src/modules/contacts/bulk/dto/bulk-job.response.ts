import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { bulkJobIds } from '../../import/job-id';
import { BulkItemError, BulkOperation, bulkProgress } from '../bulk-plan';
import type { BulkJobRow, BulkJobStatus } from '../bulk-jobs.rows';

export class BulkJobResponse {
  @ApiProperty({ description: 'Job id', type: String })
  jobId!: string;
  @ApiProperty({ description: "subscribe, unsubscribe or delete", type: String })
  operation!: BulkOperation;
  @ApiProperty({ description: "queued, processing, completed or failed", enum: ["queued", "processing", "completed", "failed"] })
  status!: BulkJobStatus;
  @ApiProperty({ description: 'Percent done', type: Number })
  progress!: number;
  @ApiProperty({ description: 'Ids in the request', type: Number })
  totalRequested!: number;
  @ApiProperty({ description: 'Items changed', type: Number })
  successCount!: number;
  @ApiProperty({ description: 'Items already in the requested state', type: Number })
  unchangedCount!: number;
  @ApiProperty({ description: 'Items that failed', type: Number })
  failureCount!: number;
  @ApiProperty({ description: "Per-contact errors", type: "array", items: { type: "object", properties: { contactId: { type: "string" }, error: { type: "string" } } } })
  errors!: Array<{ contactId: string; error: BulkItemError }>;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'When the job finished', type: String, nullable: true })
  completedAt!: string | null;
  @ApiPropertyOptional({ description: 'Why the job failed', type: String })
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
