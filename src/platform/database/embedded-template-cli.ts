import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runMigrations as runQueueMigrations } from 'bullmq';
import { Client } from 'pg';
import { QUEUE_SCHEMA, startEmbeddedPostgres } from './embedded-postgres';
import { embeddedTemplatePath, packTar } from './embedded-template';
import { runMigrations } from './migrate';

/**
 * Makes the embedded database's template (see embedded-template.ts) unless it exists: PGlite
 * initialises a cluster in a scratch directory, our migrations and BullMQ's run on it, it shuts down cleanly,
 * and that directory is archived. It runs initdb, so this process peaks at ~700 MB for ~10 s;
 * `npm run build` runs it once, and `npm start` when the build has no template for the installed
 * PGlite. A first start then opens a migrated database, as a restart does, and runs only the
 * migrations newer than the template.
 */
export async function ensureEmbeddedTemplate(target = embeddedTemplatePath()): Promise<{ path: string; made: boolean }> {
  if (existsSync(target)) return { path: target, made: false };
  const scratch = mkdtempSync(join(tmpdir(), 'mailroom-embedded-template-'));
  try {
    // No template exists yet, so PGlite initialises `<scratch>/db` itself.
    const db = await startEmbeddedPostgres(scratch);
    try {
      await runMigrations(db.url);
      // BullMQ's PostgreSQL backend keeps its own schema version; migrated here, a first start
      // finds it current, as a restart does.
      const client = new Client({ connectionString: db.url });
      await client.connect();
      try {
        await runQueueMigrations(client, QUEUE_SCHEMA);
      } finally {
        await client.end();
      }
    } finally {
      await db.stop();
    }
    const archive = gzipSync(packTar(join(scratch, 'db')), { level: 9 });
    mkdirSync(dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.tmp`;
    writeFileSync(partial, archive);
    renameSync(partial, target);
    return { path: target, made: true };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  ensureEmbeddedTemplate()
    .then(({ path, made }) => console.log(made ? `Embedded database template: ${path}` : `Embedded database template present: ${path}`))
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
