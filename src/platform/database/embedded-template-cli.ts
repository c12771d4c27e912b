import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { embeddedTemplatePath, packTar } from './embedded-template';

/**
 * Makes the embedded database's template (see embedded-template.ts) unless it exists: PGlite
 * initialises a cluster in a scratch directory and shuts it down cleanly, and that directory is
 * archived. It runs initdb, so this process peaks at ~700 MB for ~10 s; `npm run build` runs it
 * once, and `npm start` when the build has no template for the installed PGlite.
 */
export async function ensureEmbeddedTemplate(target = embeddedTemplatePath()): Promise<{ path: string; made: boolean }> {
  if (existsSync(target)) return { path: target, made: false };
  const scratch = mkdtempSync(join(tmpdir(), 'mailroom-embedded-template-'));
  try {
    const db = await PGlite.create({ dataDir: scratch, relaxedDurability: false });
    await db.close();
    const archive = gzipSync(packTar(scratch), { level: 9 });
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
