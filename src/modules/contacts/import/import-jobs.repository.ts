import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ColumnMapping } from './csv/csv-values';
import type { ImportRowError } from './csv/import-rows';
import type { ImportJobRow } from './import-jobs.rows';

export interface ImportJobForRun {
  status: string;
  file: Buffer | null;
  column_mapping: ColumnMapping | null;
  cursor_row: number;
}

const JOB_COLUMNS = 'id, status, total_rows, processed_rows, imported, updated, skipped, failure_reason, created_at, finished_at';

/**
 * The `import_jobs` and `import_job_errors` tables: a job's stored file, state and counters. A
 * batch's writes (contacts, row errors, counters, cursor) are one transaction in `import-batch.repository.ts`.
 */
@Injectable()
export class ImportJobsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(projectId: string, file: { name: string | null; size: number; content: Buffer; columnMapping: ColumnMapping | null }): Promise<string> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO import_jobs (project_id, file_name, file_size, file, column_mapping) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [projectId, file.name, file.size, file.content, file.columnMapping === null ? null : JSON.stringify(file.columnMapping)],
    );
    return rows[0].id;
  }

  /** Takes back a job that could not be queued. */
  async remove(projectId: string, id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM import_jobs WHERE id = $1 AND project_id = $2`, [id, projectId]);
  }

  async find(projectId: string, id: string): Promise<ImportJobRow | null> {
    const rows: ImportJobRow[] = await this.dataSource.query(`SELECT ${JOB_COLUMNS} FROM import_jobs WHERE id = $1 AND project_id = $2`, [id, projectId]);
    return rows[0] ?? null;
  }

  /** The row errors of a job (one of the project's, found by `find`), by row number. */
  rowErrors(projectId: string, id: string): Promise<ImportRowError[]> {
    return this.dataSource.query(
      `SELECT row_number AS row, email, reason FROM import_job_errors
        WHERE job_id = $1 AND EXISTS (SELECT 1 FROM import_jobs WHERE id = $1 AND project_id = $2) ORDER BY row_number`,
      [id, projectId],
    );
  }

  /** What a runner needs to start or resume: state, stored file, column mapping and resume cursor. */
  async forRun(projectId: string, id: string): Promise<ImportJobForRun | null> {
    const rows: ImportJobForRun[] = await this.dataSource.query(
      `SELECT status, file, column_mapping, cursor_row FROM import_jobs WHERE id = $1 AND project_id = $2`,
      [id, projectId],
    );
    return rows[0] ?? null;
  }

  async start(projectId: string, id: string, totalRows: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE import_jobs SET status = 'processing', total_rows = $3, started_at = coalesce(started_at, now())
        WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'processing')`,
      [id, projectId, totalRows],
    );
  }

  /** Completed: the stored file is dropped. */
  async complete(projectId: string, id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE import_jobs SET status = 'completed', finished_at = now(), file = NULL
        WHERE id = $1 AND project_id = $2 AND status = 'processing'`,
      [id, projectId],
    );
  }

  /** Failed for good: the stored file is dropped. */
  async fail(projectId: string, id: string, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE import_jobs SET status = 'failed', failure_reason = $3, finished_at = now(), file = NULL
        WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'processing')`,
      [id, projectId, reason],
    );
  }
}
