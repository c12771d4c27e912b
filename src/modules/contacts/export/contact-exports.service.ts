import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Readable } from 'node:stream';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { type Principal, requireManager } from '../../auth';
import { exportJobIds } from '../import/job-id';
import { exportNotFound, exportNotReady, EXPORT_RETENTION_DAYS } from './contact-export.errors';
import { ContactExportsRepository } from './contact-exports.repository';
import type { ContactExportRow } from './contact-exports.rows';
import { ContactSelections } from './contact-selections';
import { ContactExportQueuedResponse, ContactExportJobResponse, toContactExportJobResponse } from './dto/contact-export-job.response';
import type { CreateContactExportDto } from './dto/create-contact-export.dto';
import { ExportFiles } from './export-files';

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8' } as const;

/**
 * Bulk contact exports: record the request, queue it, report on it, hand over its file. Every
 * contact's personal data leaves with it, so each call is for the project's managers (a session of
 * an OWNER or ADMIN) or its secret key; a MEMBER's session is 403.
 */
@Injectable()
export class ContactExportsService {
  constructor(
    private readonly jobs: ContactExportsRepository,
    private readonly selections: ContactSelections,
    private readonly files: ExportFiles,
    @InjectQueue(QUEUES.contactExport) private readonly queue: Queue<JobPayloads['contact-export']>,
  ) {}

  async create(principal: Principal, projectId: string, dto: CreateContactExportDto): Promise<ContactExportQueuedResponse> {
    requireManager(principal);
    // null is not given, as for any optional field.
    const selection = dto.segmentId != null ? { segmentId: dto.segmentId } : dto.filter != null ? { filter: dto.filter } : {};
    await this.selections.check(projectId, selection);
    const id = await this.jobs.create(projectId, dto.format, selection);
    try {
      await this.queue.add('export', { projectId, exportId: id }, { jobId: `export-${id}` });
    } catch (err) {
      await this.jobs.remove(projectId, id);
      throw err;
    }
    return { jobId: exportJobIds.toWire(id), status: 'queued' };
  }

  async get(principal: Principal, projectId: string, wireId: string): Promise<ContactExportJobResponse> {
    requireManager(principal);
    return toContactExportJobResponse(await this.row(projectId, wireId));
  }

  /** The completed export's file as a stream, with its headers; 409 before it completes, 404 once it is gone. */
  async download(principal: Principal, projectId: string, wireId: string): Promise<{ body: Readable; headers: Record<string, string> }> {
    requireManager(principal);
    const row = await this.row(projectId, wireId);
    if (row.status !== 'completed') throw exportNotReady(row.status);
    const body = await this.files.read(row.id, row.attempt, row.format);
    if (!body) throw exportNotFound();
    const name = `contacts-${exportJobIds.toWire(row.id)}.${row.format === 'csv' ? 'csv' : 'ndjson'}`;
    return { body, headers: { 'Content-Type': CONTENT_TYPES[row.format], 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'no-store' } };
  }

  /** Deletes up to `limit` exports past their 7 days, files first (a file without its row would never be found again); the count. */
  async purgeExpired(limit: number): Promise<number> {
    const expired = await this.jobs.purgeableAcrossProjects(EXPORT_RETENTION_DAYS, limit);
    if (expired.length === 0) return 0;
    for (const row of expired) await this.files.remove(row.id, row.attempt, row.format);
    await this.jobs.deleteMany(expired.map((row) => row.id));
    return expired.length;
  }

  private async row(projectId: string, wireId: string): Promise<ContactExportRow> {
    const id = exportJobIds.fromWire(wireId);
    const row = id ? await this.jobs.find(projectId, id) : null;
    if (!row) throw exportNotFound();
    return row;
  }
}
