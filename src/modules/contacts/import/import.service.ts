import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { inspectCsv } from './csv/csv-file';
import type { ImportRowError } from './csv/import-rows';
import { ImportJobResponse, ImportJobRow, toImportJobResponse } from './dto/import-job.response';
import { importJobNotFound, invalidCsv, missingImportFile } from './import.errors';
import { importJobIds } from './job-id';

export interface UploadedCsv {
  buffer: Buffer;
  originalname?: string;
  size: number;
}

const JOB_COLUMNS = 'id, status, total_rows, processed_rows, imported, updated, skipped, failure_reason, created_at, finished_at';

/** CSV import jobs: accept an upload (checked, stored in the database, queued) and report on it. */
@Injectable()
export class ImportService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectQueue(QUEUES.contactImport) private readonly queue: Queue<JobPayloads['contact-import']>,
  ) {}

  async create(projectId: string, file: UploadedCsv | undefined): Promise<{ jobId: string; status: 'queued' }> {
    if (!file?.buffer) throw missingImportFile();
    const inspection = inspectCsv(file.buffer);
    if (!inspection.ok) throw invalidCsv(inspection.reason);
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO import_jobs (project_id, file_name, file_size, file) VALUES ($1, $2, $3, $4) RETURNING id`,
      [projectId, file.originalname?.slice(0, 255) ?? null, file.size, file.buffer],
    );
    const id = rows[0].id;
    try {
      await this.queue.add('import', { projectId, importJobId: id }, { jobId: `import-${id}` });
    } catch (err) {
      await this.dataSource.query(`DELETE FROM import_jobs WHERE id = $1`, [id]);
      throw err;
    }
    return { jobId: importJobIds.toWire(id), status: 'queued' };
  }

  async get(projectId: string, wireId: string): Promise<ImportJobResponse> {
    const id = importJobIds.fromWire(wireId);
    if (!id) throw importJobNotFound();
    const rows: ImportJobRow[] = await this.dataSource.query(`SELECT ${JOB_COLUMNS} FROM import_jobs WHERE id = $1 AND project_id = $2`, [
      id,
      projectId,
    ]);
    if (rows.length === 0) throw importJobNotFound();
    const errors: ImportRowError[] = await this.dataSource.query(
      `SELECT row_number AS row, email, reason FROM import_job_errors WHERE job_id = $1 ORDER BY row_number`,
      [id],
    );
    return toImportJobResponse(rows[0], errors);
  }
}
