import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/platform/database/embedded-postgres';
import { embeddedTemplatePath } from '../../src/platform/database/embedded-template';
import { runMigrations } from '../../src/platform/database/migrate';

const MIGRATIONS = join(__dirname, '..', '..', 'migrations');

/**
 * The embedded mode's test databases (in memory) start from one image of a migrated database,
 * made once per PGlite version and set of migrations and kept in the temp directory: an app then
 * loads it instead of the bare template plus every migration (~2-3 s less per app start, and a
 * run starts about a hundred). Two Jest workers may both make it at first; each writes its own
 * file and renames it into place.
 */
export async function migratedImage(): Promise<Blob> {
  const hash = createHash('sha256').update(basename(embeddedTemplatePath()));
  for (const name of readdirSync(MIGRATIONS).sort()) hash.update(name).update(readFileSync(join(MIGRATIONS, name)));
  const path = join(tmpdir(), `mailroom-test-db-${hash.digest('hex').slice(0, 16)}.tar`);
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const db = await startEmbeddedPostgres(undefined);
  try {
    await runMigrations(db.url);
    const image = await db.dump();
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
    renameSync(partial, path);
    return image;
  } finally {
    await db.stop();
  }
}
