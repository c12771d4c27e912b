import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { bulkJobIds } from '../import/job-id';
import type { BulkOperation } from './bulk-plan';
import { BulkJobsRepository } from './bulk-jobs.repository';
import { bulkJobNotFound } from './bulk.errors';
import { BulkJobResponse, toBulkJobResponse } from './dto/bulk-job.response';

/** Bulk subscribe / unsubscribe / delete jobs: record the request, queue it, report on it. */
@Injectable()
export class BulkService {
  constructor(
    private readonly jobs: BulkJobsRepository,
    @InjectQueue(QUEUES.contactBulk) private readonly queue: Queue<JobPayloads['contact-bulk']>,
  ) {}

  async create(projectId: string, operation: BulkOperation, contactIds: string[]): Promise<{ jobId: string; status: 'queued' }> {
    const id = await this.jobs.create(projectId, operation, contactIds);
    try {
      await this.queue.add(operation, { projectId, bulkJobId: id }, { jobId: `bulk-${id}` });
    } catch (err) {
      await this.jobs.remove(projectId, id);
      throw err;
    }
    return { jobId: bulkJobIds.toWire(id), status: 'queued' };
  }

  async get(projectId: string, wireId: string): Promise<BulkJobResponse> {
    const id = bulkJobIds.fromWire(wireId);
    if (!id) throw bulkJobNotFound();
    const row = await this.jobs.find(projectId, id);
    if (!row) throw bulkJobNotFound();
    return toBulkJobResponse(row);
  }
}
