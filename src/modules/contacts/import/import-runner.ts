import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { logger } from '../../../platform/logging/logger';
import { dataLimitMessage } from '../../../platform/database/pg-errors';
import { countDataRecords, csvRecords, decodeCsv } from './csv/csv-file';
import { ColumnMapping, planColumns } from './csv/csv-values';
import { ImportBatch, ImportRowReader } from './csv/import-rows';
import { writeImportBatch } from './import-batch.repository';
import { appMetrics } from '../../../platform/metrics/metrics';
import { DatabaseTraits } from '../../../platform/database/database-traits';
import { ImportJobsRepository } from './import-jobs.repository';

/** Rows per transaction: large enough for set-based speed, small enough for steady progress. */
export const IMPORT_BATCH_ROWS = 5_000;

/**
 * Batches written at once where the database runs transactions side by side: a second batch's
 * contacts are written by another connection while the first commits (the import is bound by the
 * database's CPU, and PostgreSQL runs the two on two cores). The embedded database holds every
 * other connection until the open transaction ends, and a batch keeps its transaction open while
 * it waits for its predecessor's commit: a second batch that began first would wait forever for a
 * predecessor that cannot begin. There batches are written one at a time (`DatabaseTraits`).
 */
const BATCHES_IN_FLIGHT = 2;

/** Another runner moved the job on (a stalled job picked up twice); this one stops quietly. */
class ImportSuperseded extends Error {}

/** The stored file cannot be imported; retrying cannot help. */
class ImportFileUnusable extends Error {}

const log = logger('contact-import');

/**
 * Runs one import job from its stored file. Each batch commits together with the job's
 * counters and cursor, in file order, so a retried or resumed job continues after the last
 * committed batch and never counts a row twice. A job found completed or failed is left alone.
 */
@Injectable()
export class ImportRunner {
  private readonly batchesInFlight: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: ImportJobsRepository,
    traits: DatabaseTraits,
  ) {
    this.batchesInFlight = traits.concurrentTransactions ? BATCHES_IN_FLIGHT : 1;
  }

  async run(projectId: string, jobId: string): Promise<void> {
    const job = await this.jobs.forRun(projectId, jobId);
    if (!job || job.status === 'completed' || job.status === 'failed') return;
    if (!job.file) {
      await this.fail(projectId, jobId, 'The uploaded file is no longer available');
      return;
    }
    let text: string;
    try {
      text = decodeCsv(job.file);
    } catch {
      return this.fail(projectId, jobId, 'The file is not valid UTF-8 text');
    }
    await this.jobs.start(projectId, jobId, countDataRecords(text));
    try {
      await this.process(projectId, jobId, text, job.cursor_row, job.column_mapping);
    } catch (err) {
      if (err instanceof ImportSuperseded) return;
      if (err instanceof ImportFileUnusable) return this.fail(projectId, jobId, err.message);
      // A custom-data limit is not transient: another attempt would hit it again (minutes later).
      const limit = dataLimitMessage(err);
      if (limit) return this.fail(projectId, jobId, `The file's custom data passes a limit: ${limit}`);
      throw err;
    }
    await this.jobs.complete(projectId, jobId);
    log.info({ projectId, jobId }, 'import completed');
  }

  /** Marks the job failed for good (last attempt used up, or nothing left to retry). */
  async fail(projectId: string, jobId: string, reason: string): Promise<void> {
    await this.jobs.fail(projectId, jobId, reason.slice(0, 500));
  }

  private async process(projectId: string, jobId: string, text: string, startCursor: number, mapping: ColumnMapping | null): Promise<void> {
    let reader: ImportRowReader | undefined;
    let batch = new ImportBatch();
    // Batches in flight, oldest first. Each writes its contacts as soon as it is parsed (beside
    // the batch before it, up to batchesInFlight) and commits only after its predecessor did,
    // expecting the cursor that one leaves (writeImportBatch): commits stay in file order.
    const inFlight: Array<Promise<void>> = [];
    let expectedCursor = startCursor;
    const write = async (full: ImportBatch) => {
      while (inFlight.length >= this.batchesInFlight) await inFlight.shift();
      // The newest batch still in flight; none left means every earlier one committed.
      const predecessor = inFlight.at(-1) ?? Promise.resolve();
      const job = { id: jobId, projectId, expectedCursor };
      expectedCursor = full.lastRow;
      const written = (full.repeatsEarlierBatch ? predecessor : Promise.resolve())
        .then(() =>
          this.dataSource.transaction(async (manager) => {
            const result = await writeImportBatch(manager, job, full, predecessor);
            // Thrown inside, so the batch's contacts roll back with it: the runner that moved the
            // job on wrote them, and may since have written later cells of the same contacts.
            if (!result) throw new ImportSuperseded();
            return result;
          }),
        )
        .then((result) => {
          appMetrics.importRows('imported', result.inserted);
          appMetrics.importRows('updated', full.contactRows - result.inserted);
          appMetrics.importRows('skipped', full.skipped);
        });
      // A failure surfaces where the runner awaits this write, never as an unhandled rejection.
      written.catch(() => undefined);
      inFlight.push(written);
    };
    try {
      for await (const record of csvRecords(text)) {
        if (!reader) {
          const plan = planColumns(record.cells, mapping);
          if (!plan) throw new ImportFileUnusable('The header row has no email column');
          reader = new ImportRowReader(plan);
          continue;
        }
        // Rows up to the cursor were committed by an earlier attempt: replayed only so the
        // reader knows their emails (duplicate detection), never written again.
        const outcome = reader.read(record);
        if (record.row <= startCursor) continue;
        batch.add(record, outcome);
        if (batch.size >= IMPORT_BATCH_ROWS) {
          await write(batch);
          batch = new ImportBatch();
        }
      }
      if (batch.lastRow > 0) await write(batch);
      while (inFlight.length > 0) await inFlight.shift();
    } catch (err) {
      // Batches after a failed one roll back (they wait for it); let them end before the job
      // is retried or failed, so no transaction of this attempt outlives it.
      await Promise.allSettled(inFlight);
      throw err;
    }
  }
}
