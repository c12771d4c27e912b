import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { join } from 'node:path';
import type { ContactExportFormat } from './contact-exports.rows';

/**
 * The export files under `$DATA_DIR/exports`: a run writes `.<id>.<attempt>.part` and renames it
 * to `<id>.<attempt>.<format>` when it is whole, so a reader never sees half a file and a run
 * that was overtaken (a crash, a lapsed lock) never touches the newer run's file. Every process
 * that serves or runs exports must see the same directory (ROLE=api and ROLE=worker share `DATA_DIR`).
 */
export class ExportFiles {
  constructor(readonly dir: string) {}

  finalPath(id: string, attempt: number, format: ContactExportFormat): string {
    return join(this.dir, `${id}.${attempt}.${format}`);
  }

  /** A run's file, written in order under back-pressure; `commit` makes it the export's file. */
  async open(id: string, attempt: number, format: ContactExportFormat): Promise<ExportFileWriter> {
    await mkdir(this.dir, { recursive: true });
    const part = join(this.dir, `.${id}.${attempt}.part`);
    return new ExportFileWriter(createWriteStream(part, { flags: 'w' }), part, this.finalPath(id, attempt, format));
  }

  /** The completed file, or null when it is gone. */
  async read(id: string, attempt: number, format: ContactExportFormat): Promise<ReadStream | null> {
    const path = this.finalPath(id, attempt, format);
    try {
      await stat(path);
    } catch {
      return null;
    }
    return createReadStream(path);
  }

  /** Removes every file of an export's runs up to `attempt` (final and partial). */
  async remove(id: string, attempt: number, format: ContactExportFormat): Promise<void> {
    const paths = [];
    for (let run = 1; run <= attempt; run++) paths.push(this.finalPath(id, run, format), join(this.dir, `.${id}.${run}.part`));
    await Promise.all(paths.map((path) => rm(path, { force: true })));
  }
}

export class ExportFileWriter {
  private failure: Error | null = null;

  constructor(
    private readonly stream: WriteStream,
    private readonly part: string,
    private readonly final: string,
  ) {
    // Kept for the next write: a disk error fails the run, it never takes the process down.
    stream.on('error', (err) => (this.failure ??= err));
  }

  /** Resolves once the stream can take more: memory holds at most one chunk ahead of the disk. */
  async write(chunk: string): Promise<void> {
    if (this.failure) throw this.failure;
    if (chunk.length > 0 && !this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Closes the file and renames it to its final name. */
  async commit(): Promise<void> {
    if (this.failure) throw this.failure;
    this.stream.end();
    await finished(this.stream);
    await rename(this.part, this.final);
  }

  /** Drops the partial file. */
  async discard(): Promise<void> {
    this.stream.destroy();
    await rm(this.part, { force: true });
  }
}
