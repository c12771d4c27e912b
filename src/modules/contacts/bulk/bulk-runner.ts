import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { retryOnConflict } from '../../../platform/database/pg-errors';
import { ContactsRepository } from '../contacts.repository';
import { ContactsService } from '../contacts.service';
import { BulkJobsRepository } from './bulk-jobs.repository';
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
    private readonly jobs: BulkJobsRepository,
    private readonly contactRows: ContactsRepository,
    private readonly contacts: ContactsService,
  ) {}

  async run(projectId: string, jobId: string): Promise<void> {
    const job = await this.jobs.start(projectId, jobId);
    if (!job) return;
    const items = planBulkItems(job.contact_ids);
    for (let start = job.processed; start < items.length; start += BULK_CHUNK) {
      const chunk = items.slice(start, start + BULK_CHUNK);
      // A chunk that deletes contacts can meet sent records in the other lock order (see
      // ContactsService.remove): the aborted chunk wrote nothing and runs again.
      const done = await retryOnConflict(() => this.dataSource.transaction((manager) => this.runChunk(manager, projectId, jobId, job.operation, start, chunk)));
      if (!done) return;
    }
    await this.jobs.complete(projectId, jobId);
  }

  async fail(projectId: string, jobId: string, reason: string): Promise<void> {
    await this.jobs.fail(projectId, jobId, reason.slice(0, 500));
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
    if ((await this.jobs.lockProcessed(projectId, jobId, manager)) !== start) return false;
    const targets = chunk.filter((item) => item.kind === 'target').map((item) => item.id);
    let changed = new Set<string>();
    let found = new Set<string>();
    if (targets.length > 0 && operation === 'delete') {
      changed = new Set(await this.contactRows.removeMany(projectId, targets, manager));
      found = changed;
    } else if (targets.length > 0) {
      const result = await this.contacts.setSubscribedMany(projectId, targets, operation === 'subscribe', { source: 'bulk' }, manager);
      changed = new Set(result.flipped);
      found = new Set([...result.flipped, ...result.unchanged]);
    }
    const outcome = summarizeChunk(chunk, changed, found);
    await this.jobs.recordChunk(projectId, jobId, { processed: start + chunk.length, ...outcome }, manager);
    return true;
  }
}
