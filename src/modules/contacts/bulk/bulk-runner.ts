import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { retryOnConflict } from '../../../platform/database/pg-errors';
import { ContactsService } from '../contacts.service';
import { BulkItem, BulkOperation, planBulkItems, summarizeChunk } from './bulk-plan';

/** Ids per transaction: progress moves in these steps. */
export const BULK_CHUNK = 250;

/**
 * Runs one bulk job in chunks. Each chunk's contact changes, subscription events, counters and
 * cursor (`processed`) commit together, so a retried job resumes after the last committed chunk
 * and never counts an id twice. Only the caller's project's contacts are ever touched.
 */
@Injectable()
export class BulkRunner {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contacts: ContactsService,
  ) {}

  async run(projectId: string, jobId: string): Promise<void> {
    const rows: Array<{ status: string; operation: BulkOperation; contact_ids: string[]; processed: number }> = await this.dataSource.query(
      // Wrapped in a SELECT: TypeORM returns [rows, count] for a bare UPDATE … RETURNING.
      `WITH started AS (
         UPDATE bulk_jobs SET status = 'processing', started_at = coalesce(started_at, now())
          WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'processing')
          RETURNING status, operation, contact_ids, processed
       ) SELECT * FROM started`,
      [jobId, projectId],
    );
    const job = rows[0];
    if (!job) return;
    const items = planBulkItems(job.contact_ids);
    for (let start = job.processed; start < items.length; start += BULK_CHUNK) {
      const chunk = items.slice(start, start + BULK_CHUNK);
      // A chunk that deletes contacts can meet sent records in the other lock order (see
      // ContactsService.remove): the aborted chunk wrote nothing and runs again.
      const done = await retryOnConflict(() => this.dataSource.transaction((manager) => this.runChunk(manager, projectId, jobId, job.operation, start, chunk)));
      if (!done) return;
    }
    await this.dataSource.query(
      `UPDATE bulk_jobs SET status = 'completed', finished_at = now() WHERE id = $1 AND project_id = $2 AND status = 'processing'`,
      [jobId, projectId],
    );
  }

  async fail(projectId: string, jobId: string, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE bulk_jobs SET status = 'failed', failure_reason = $3, finished_at = now()
        WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'processing')`,
      [jobId, projectId, reason.slice(0, 500)],
    );
  }

  /** False when another runner already moved the job past `start` (this one stops). */
  private async runChunk(
    manager: EntityManager,
    projectId: string,
    jobId: string,
    operation: BulkOperation,
    start: number,
    chunk: BulkItem[],
  ): Promise<boolean> {
    const locked: Array<{ processed: number }> = await manager.query(
      `SELECT processed FROM bulk_jobs WHERE id = $1 AND project_id = $2 AND status = 'processing' FOR UPDATE`,
      [jobId, projectId],
    );
    if (locked[0]?.processed !== start) return false;
    const targets = chunk.filter((item) => item.kind === 'target').map((item) => item.id);
    let changed = new Set<string>();
    let found = new Set<string>();
    if (targets.length > 0 && operation === 'delete') {
      const deleted: Array<{ id: string }> = await manager.query(`WITH gone AS (DELETE FROM contacts WHERE project_id = $1 AND id = ANY($2::text[]) RETURNING id) SELECT id FROM gone`, [
        projectId,
        targets,
      ]);
      changed = new Set(deleted.map((row) => row.id));
      found = changed;
    } else if (targets.length > 0) {
      const result = await this.contacts.setSubscribedMany(projectId, targets, operation === 'subscribe', { source: 'bulk' }, manager);
      changed = new Set(result.flipped);
      found = new Set([...result.flipped, ...result.unchanged]);
    }
    const outcome = summarizeChunk(chunk, changed, found);
    await manager.query(
      `UPDATE bulk_jobs
          SET processed = $2, success_count = success_count + $3, unchanged_count = unchanged_count + $4,
              failure_count = failure_count + $5, errors = errors || $6::jsonb
        WHERE id = $1`,
      [jobId, start + chunk.length, outcome.success, outcome.unchanged, outcome.errors.length, JSON.stringify(outcome.errors)],
    );
    return true;
  }
}
