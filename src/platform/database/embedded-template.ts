import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { projectRoot } from './project-root';

/**
 * The embedded database's template: the data directory of a freshly initialised PGlite cluster
 * with our migrations and BullMQ's applied (cleanly shut down), made once by `npm run build` into
 * `dist/embedded-db/` and unpacked into `$DATA_DIR/db` on a first start, which then runs only the
 * migrations newer than the build's template (with Node 24.21 a first start that ran every
 * migration peaked 1.3-1.5 times as high as a restart; test/e2e/first-start.e2e-spec.ts). Running initdb inside
 * the service instead took ~780 MB of RSS at its peak (a second PostgreSQL instance, initdb's own
 * WASM module, a copy of the whole WASM memory and a tarball of the result, all at once), where a
 * restart of the same service peaks near 290 MB (bench/README.md, "The first start's peak").
 * The file name carries the PGlite version it was made with: another PGlite, whose catalog may
 * differ, finds no template and initialises the database itself, as before.
 * Every database made from one build's template shares its system identifier (pg_control), which
 * only physical replication looks at; PGlite has none.
 */
export function embeddedTemplatePath(root = projectRoot()): string {
  return join(root, 'dist', 'embedded-db', `pglite-${pgliteVersion()}.tar.gz`);
}

function pgliteVersion(): string {
  // The package exports no package.json; its entry point sits in <package>/dist/.
  const entry = require.resolve('@electric-sql/pglite');
  const manifest = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error('@electric-sql/pglite: no version in its package.json');
  return manifest.version;
}

/**
 * Makes `dbPath` a copy of the template when it is missing or empty and the template exists;
 * returns whether it did. The files are unpacked beside it (`<dbPath>.init`) and renamed into place,
 * so an interrupted first start leaves either no database or a whole one, never half of one. A
 * directory with anything in it is left to PGlite, which opens it or initialises it as before.
 */
export function restoreEmbeddedTemplate(dbPath: string, template = embeddedTemplatePath()): boolean {
  if (!existsSync(template)) return false;
  if (existsSync(dbPath) && readdirSync(dbPath).length > 0) return false;
  const staging = `${dbPath}.init`;
  rmSync(staging, { recursive: true, force: true });
  // Owner only, as PostgreSQL wants its data directory (PGlite does not check).
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  try {
    unpackTar(gunzipSync(readFileSync(template)), staging);
    if (existsSync(dbPath)) rmdirSync(dbPath);
    renameSync(staging, dbPath);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  return true;
}

// A plain ustar archive (POSIX.1-1988): 512-byte headers, each file's bytes padded to 512, two
// zero blocks at the end; `tar tzf` lists it. Only directories and regular files are written or read.
const BLOCK = 512;
const FILE = 0x30; // '0'
const DIRECTORY = 0x35; // '5'

function octal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(value.toString(8).padStart(length - 1, '0') + '\0', offset, length, 'ascii');
}

function readOctal(header: Buffer, offset: number, length: number): number {
  const text = header.toString('ascii', offset, offset + length).replace(/[\0 ]+$/, '').trim();
  if (!/^[0-7]+$/.test(text)) throw new Error(`embedded database template: bad number field ${JSON.stringify(text)}`);
  return parseInt(text, 8);
}

function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  return sum;
}

function tarHeader(name: string, type: number, mode: number, size: number, mtimeMs: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`embedded database template: path longer than 100 bytes: ${name}`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, 'utf8');
  octal(header, 100, 8, mode & 0o7777);
  octal(header, 108, 8, 0);
  octal(header, 116, 8, 0);
  octal(header, 124, 12, size);
  octal(header, 136, 12, Math.floor(mtimeMs / 1000));
  header[156] = type;
  header.write('ustar\u000000', 257, 8, 'ascii');
  header.write(checksum(header).toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return header;
}

/** The ustar archive of everything under `dir`, paths relative to it, in a stable order. */
export function packTar(dir: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(join(dir, relative)).sort()) {
      const path = relative ? `${relative}/${name}` : name;
      const stat = statSync(join(dir, path));
      if (stat.isDirectory()) {
        parts.push(tarHeader(`${path}/`, DIRECTORY, stat.mode, 0, stat.mtimeMs));
        walk(path);
      } else if (stat.isFile()) {
        const data = readFileSync(join(dir, path));
        parts.push(tarHeader(path, FILE, stat.mode, data.length, stat.mtimeMs), data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK));
      } else {
        throw new Error(`embedded database template: ${path} is neither a file nor a directory`);
      }
    }
  };
  walk('');
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

/** Writes the directories and files of a ustar archive under `dir`; refuses anything else, and any path that leaves `dir`. */
export function unpackTar(archive: Buffer, dir: string): void {
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return;
    if (header.toString('ascii', 257, 262) !== 'ustar') throw new Error('embedded database template: not a ustar archive');
    if (readOctal(header, 148, 8) !== checksum(header)) throw new Error('embedded database template: header checksum mismatch');
    const name = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const path = posix.normalize(name);
    if (!name || posix.isAbsolute(name) || path === '..' || path.startsWith('../')) throw new Error(`embedded database template: refusing the path ${JSON.stringify(name)}`);
    const mode = readOctal(header, 100, 8) & 0o777;
    const size = readOctal(header, 124, 12);
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new Error(`embedded database template: ${name} is cut short`);
    const type = header[156];
    if (type === DIRECTORY) {
      mkdirSync(join(dir, path), { recursive: true, mode });
    } else if (type === FILE || type === 0) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), archive.subarray(start, start + size), { mode });
    } else {
      throw new Error(`embedded database template: ${name} is neither a file nor a directory`);
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error('embedded database template: the archive has no end');
}
