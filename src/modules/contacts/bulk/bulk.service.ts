import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { bulkJobIds } from '../import/job-id';
import type { BulkOperation } from './bulk-plan';
import { bulkJobNotFound } from './bulk.errors';
import { BulkJobResponse, BulkJobRow, toBulkJobResponse } from './dto/bulk-job.response';

export const BULK_JOB_COLUMNS = `id, operation, status, jsonb_array_length(contact_ids) AS total, processed, success_count,
  unchanged_count, failure_count, errors, failure_reason, created_at, finished_at`;

/** Bulk subscribe / unsubscribe / delete jobs: record the request, queue it, report on it. */
@Injectable()
export class BulkService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectQueue(QUEUES.contactBulk) private readonly queue: Queue<JobPayloads['contact-bulk']>,
  ) {}

  async create(projectId: string, operation: BulkOperation, contactIds: string[]): Promise<{ jobId: string; status: 'queued' }> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO bulk_jobs (project_id, operation, contact_ids) VALUES ($1, $2, $3::jsonb) RETURNING id`,
      [projectId, operation, JSON.stringify(contactIds)],
    );
    const id = rows[0].id;
    try {
      await this.queue.add(operation, { projectId, bulkJobId: id }, { jobId: `bulk-${id}` });
    } catch (err) {
      await this.dataSource.query(`DELETE FROM bulk_jobs WHERE id = $1`, [id]);
      throw err;
    }
    return { jobId: bulkJobIds.toWire(id), status: 'queued' };
  }

  async get(projectId: string, wireId: string): Promise<BulkJobResponse> {
    const id = bulkJobIds.fromWire(wireId);
    if (!id) throw bulkJobNotFound();
    const rows: BulkJobRow[] = await this.dataSource.query(`SELECT ${BULK_JOB_COLUMNS} FROM bulk_jobs WHERE id = $1 AND project_id = $2`, [
      id,
      projectId,
    ]);
    if (rows.length === 0) throw bulkJobNotFound();
    return toBulkJobResponse(rows[0]);
  }
}
