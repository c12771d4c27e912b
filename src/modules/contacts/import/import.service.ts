import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { resolveColumnMapping } from './csv/column-mapping';
import { inspectCsv } from './csv/csv-file';
import { ImportJobResponse, toImportJobResponse } from './dto/import-job.response';
import { ImportJobsRepository } from './import-jobs.repository';
import { importJobNotFound, invalidCsv, missingImportFile } from './import.errors';
import { importJobIds } from './job-id';

export interface UploadedCsv {
  buffer: Buffer;
  originalname?: string;
  size: number;
}

/** CSV import jobs: accept an upload (checked, stored in the database, queued) and report on it. */
@Injectable()
export class ImportService {
  constructor(
    private readonly jobs: ImportJobsRepository,
    @InjectQueue(QUEUES.contactImport) private readonly queue: Queue<JobPayloads['contact-import']>,
  ) {}

  /** `mapping`: the optional column mapping part, JSON text (checked against the file's header). */
  async create(projectId: string, file: UploadedCsv | undefined, mapping?: string): Promise<{ jobId: string; status: 'queued' }> {
    if (!file?.buffer) throw missingImportFile();
    const inspection = inspectCsv(file.buffer);
    if (!inspection.ok) throw invalidCsv(inspection.reason);
    const columnMapping = resolveColumnMapping(inspection.header, mapping);
    const id = await this.jobs.create(projectId, { name: file.originalname?.slice(0, 255) ?? null, size: file.size, content: file.buffer, columnMapping });
    try {
      await this.queue.add('import', { projectId, importJobId: id }, { jobId: `import-${id}` });
    } catch (err) {
      await this.jobs.remove(projectId, id);
      throw err;
    }
    return { jobId: importJobIds.toWire(id), status: 'queued' };
  }

  async get(projectId: string, wireId: string): Promise<ImportJobResponse> {
    const id = importJobIds.fromWire(wireId);
    if (!id) throw importJobNotFound();
    const row = await this.jobs.find(projectId, id);
    if (!row) throw importJobNotFound();
    const errors = await this.jobs.rowErrors(projectId, id);
    return toImportJobResponse(row, errors);
  }
}
