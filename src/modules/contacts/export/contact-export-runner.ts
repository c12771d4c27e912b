import { Injectable } from '@nestjs/common';
import { ContactFieldsService } from '../contact-fields.service';
import { ContactsRepository } from '../contacts.repository';
import { ContactExportsRepository } from './contact-exports.repository';
import { ContactSelections } from './contact-selections';
import { csvChunk, KeyType, ndjsonChunk } from './export-format';
import { ExportFiles } from './export-files';
import { collectGarbageIfGrown } from '../../../platform/memory/idle-collector';

/** Contacts read per statement and written per chunk: memory holds one page, whatever the count. */
export const EXPORT_PAGE = 1_000;

/**
 * Runs one export: reads the selected contacts by id in keyset pages (no transaction held between
 * them) and writes each page to the run's file before reading the next. A run starts from the
 * first contact into a file of its own (`attempt`), so a run a crash interrupted is simply done
 * again by the job's retry and the file is complete, without duplicates; only the newest run
 * completes the export. Only the caller's project's contacts are ever read.
 */
@Injectable()
export class ContactExportRunner {
  constructor(
    private readonly jobs: ContactExportsRepository,
    private readonly contacts: ContactsRepository,
    private readonly fields: ContactFieldsService,
    private readonly selections: ContactSelections,
    private readonly files: ExportFiles,
  ) {}

  async run(projectId: string, exportId: string): Promise<void> {
    const run = await this.jobs.start(projectId, exportId);
    if (!run) return;
    const where = await this.selections.condition(projectId, run.selection);
    // The columns are the keys known when the run starts; a key first stored later is in the NDJSON only.
    const keys: KeyType[] = run.format === 'csv' ? await this.fields.keyTypes(projectId) : [];
    const file = await this.files.open(exportId, run.attempt, run.format);
    try {
      let rows = 0;
      let after: string | null = null;
      for (let first = true; ; first = false) {
        const page = await this.contacts.exportPage(projectId, where, after, EXPORT_PAGE);
        await file.write(run.format === 'csv' ? csvChunk(page, keys, first) : ndjsonChunk(page));
        rows += page.length;
        if (page.length < EXPORT_PAGE) break;
        after = page[page.length - 1].id;
        collectGarbageIfGrown();
        if (!(await this.jobs.progress(projectId, exportId, run.attempt, rows))) return await file.discard();
      }
      await file.commit();
      // What runs before this one left (a crash's partial file) goes now, not in 7 days.
      if (await this.jobs.complete(projectId, exportId, run.attempt, rows)) await this.files.remove(exportId, run.attempt - 1, run.format);
    } catch (err) {
      await file.discard();
      throw err;
    }
  }

  async fail(projectId: string, exportId: string, reason: string): Promise<void> {
    await this.jobs.fail(projectId, exportId, reason.slice(0, 500));
  }
}
