import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ContactExportFormat, ContactExportRow, ContactExportRun, ContactExportSelection } from './contact-exports.rows';

const COLUMNS = 'id, format, status, attempt, row_count, failure_reason, created_at, finished_at';

/** The `contact_exports` table: an export's request, state, run number and row count. */
@Injectable()
export class ContactExportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(projectId: string, format: ContactExportFormat, selection: ContactExportSelection): Promise<string> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO contact_exports (project_id, format, selection) VALUES ($1, $2, $3::jsonb) RETURNING id`,
      [projectId, format, JSON.stringify(selection)],
    );
    return rows[0].id;
  }

  /** Takes back an export that could not be queued. */
  async remove(projectId: string, id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM contact_exports WHERE id = $1 AND project_id = $2`, [id, projectId]);
  }

  async find(projectId: string, id: string): Promise<ContactExportRow | null> {
    const rows: ContactExportRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM contact_exports WHERE id = $1 AND project_id = $2`, [id, projectId]);
    return rows[0] ?? null;
  }

  /**
   * A new run of a queued or running export (a run a crash interrupted starts again from the
   * first row): `running`, the next attempt number, the count back to 0. Null when it is finished or gone.
   */
  async start(projectId: string, id: string): Promise<ContactExportRun | null> {
    const rows: ContactExportRun[] = await this.dataSource.query(
      // Wrapped in a SELECT: TypeORM returns [rows, count] for a bare UPDATE … RETURNING.
      `WITH started AS (
         UPDATE contact_exports SET status = 'running', attempt = attempt + 1, row_count = 0, started_at = coalesce(started_at, now())
          WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'running')
          RETURNING format, selection, attempt
       ) SELECT * FROM started`,
      [id, projectId],
    );
    return rows[0] ?? null;
  }

  /** The rows a run has written so far; false when a newer run took the export over (this one stops). */
  async progress(projectId: string, id: string, attempt: number, rowCount: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH moved AS (
         UPDATE contact_exports SET row_count = $4 WHERE id = $1 AND project_id = $2 AND attempt = $3 AND status = 'running' RETURNING 1
       ) SELECT * FROM moved`,
      [id, projectId, attempt, rowCount],
    );
    return rows.length > 0;
  }

  /** Completes the export with its run's file; false when a newer run took it over. */
  async complete(projectId: string, id: string, attempt: number, rowCount: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH done AS (
         UPDATE contact_exports SET status = 'completed', row_count = $4, finished_at = now()
          WHERE id = $1 AND project_id = $2 AND attempt = $3 AND status = 'running' RETURNING 1
       ) SELECT * FROM done`,
      [id, projectId, attempt, rowCount],
    );
    return rows.length > 0;
  }

  async fail(projectId: string, id: string, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE contact_exports SET status = 'failed', failure_reason = $3, finished_at = now()
        WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'running')`,
      [id, projectId, reason],
    );
  }

  /** Exports created more than `days` ago, across projects, oldest first. */
  async purgeableAcrossProjects(days: number, limit: number): Promise<Array<{ id: string; format: ContactExportFormat; attempt: number }>> {
    return this.dataSource.query(
      `SELECT id, format, attempt FROM contact_exports WHERE created_at < now() - make_interval(days => $1) ORDER BY created_at LIMIT $2`,
      [days, limit],
    );
  }

  async deleteMany(ids: string[]): Promise<void> {
    await this.dataSource.query(`DELETE FROM contact_exports WHERE id = ANY($1::uuid[])`, [ids]);
  }
}
