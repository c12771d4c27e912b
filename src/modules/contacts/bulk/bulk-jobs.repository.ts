import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { BulkOperation } from './bulk-plan';
import type { BulkJobRow } from './bulk-jobs.rows';

export const BULK_JOB_COLUMNS = `id, operation, status, jsonb_array_length(contact_ids) AS total, processed, success_count,
  unchanged_count, failure_count, errors, failure_reason, created_at, finished_at`;

/** The `bulk_jobs` table: a bulk job's request, state and counters. */
@Injectable()
export class BulkJobsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(projectId: string, operation: BulkOperation, contactIds: string[]): Promise<string> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO bulk_jobs (project_id, operation, contact_ids) VALUES ($1, $2, $3::jsonb) RETURNING id`,
      [projectId, operation, JSON.stringify(contactIds)],
    );
    return rows[0].id;
  }

  /** Takes back a job that could not be queued. */
  async remove(projectId: string, id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM bulk_jobs WHERE id = $1 AND project_id = $2`, [id, projectId]);
  }

  async find(projectId: string, id: string): Promise<BulkJobRow | null> {
    const rows: BulkJobRow[] = await this.dataSource.query(`SELECT ${BULK_JOB_COLUMNS} FROM bulk_jobs WHERE id = $1 AND project_id = $2`, [id, projectId]);
    return rows[0] ?? null;
  }

  /** Moves a queued or processing job to `processing`; null when it is finished or absent. */
  async start(projectId: string, id: string): Promise<{ status: string; operation: BulkOperation; contact_ids: string[]; processed: number } | null> {
    const rows: Array<{ status: string; operation: BulkOperation; contact_ids: string[]; processed: number }> = await this.dataSource.query(
      // Wrapped in a SELECT: TypeORM returns [rows, count] for a bare UPDATE … RETURNING.
      `WITH started AS (
         UPDATE bulk_jobs SET status = 'processing', started_at = coalesce(started_at, now())
          WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'processing')
          RETURNING status, operation, contact_ids, processed
       ) SELECT * FROM started`,
      [id, projectId],
    );
    return rows[0] ?? null;
  }

  async complete(projectId: string, id: string): Promise<void> {
    await this.dataSource.query(`UPDATE bulk_jobs SET status = 'completed', finished_at = now() WHERE id = $1 AND project_id = $2 AND status = 'processing'`, [
      id,
      projectId,
    ]);
  }

  async fail(projectId: string, id: string, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE bulk_jobs SET status = 'failed', failure_reason = $3, finished_at = now()
        WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'processing')`,
      [id, projectId, reason],
    );
  }

  /** The processing job's cursor, its row locked for the caller's transaction; null when not processing. */
  async lockProcessed(projectId: string, id: string, manager: EntityManager): Promise<number | null> {
    const locked: Array<{ processed: number }> = await manager.query(
      `SELECT processed FROM bulk_jobs WHERE id = $1 AND project_id = $2 AND status = 'processing' FOR UPDATE`,
      [id, projectId],
    );
    return locked[0]?.processed ?? null;
  }

  /** Adds a chunk's outcome to the counters and moves the cursor to `processed`, in the caller's transaction. */
  async recordChunk(
    projectId: string,
    id: string,
    chunk: { processed: number; success: number; unchanged: number; errors: unknown[] },
    manager: EntityManager,
  ): Promise<void> {
    await manager.query(
      `UPDATE bulk_jobs
          SET processed = $2, success_count = success_count + $3, unchanged_count = unchanged_count + $4,
              failure_count = failure_count + $5, errors = errors || $6::jsonb
        WHERE id = $1 AND project_id = $7`,
      [id, chunk.processed, chunk.success, chunk.unchanged, chunk.errors.length, JSON.stringify(chunk.errors), projectId],
    );
  }
}
