import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { packTar, restoreEmbeddedTemplate, unpackTar } from './embedded-template';

/** Every path under `dir` with its contents (files) or '/' (directories). */
function tree(dir: string, relative = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, relative)).sort()) {
    const path = relative ? `${relative}/${name}` : name;
    if (statSync(join(dir, path)).isDirectory()) Object.assign(out, { [path]: '/' }, tree(dir, path));
    else out[path] = readFileSync(join(dir, path)).toString('base64');
  }
  return out;
}

/** A one-entry ustar archive naming `name`, as a hostile or broken template would hold it. */
function archiveWith(name: string): Buffer {
  const source = mkdtempSync(join(tmpdir(), 'tpl-entry-'));
  try {
    writeFileSync(join(source, 'x'), 'data');
    const archive = packTar(source);
    archive.fill(0, 0, 100);
    archive.write(name, 0, 'utf8');
    // Recompute the header checksum for the new name.
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : archive[i];
    archive.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
    return archive;
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}

describe('embedded database template', () => {
  let work: string;
  let source: string;
  let template: string;

  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'embedded-template-'));
    source = join(work, 'source');
    mkdirSync(join(source, 'base', '1'), { recursive: true });
    mkdirSync(join(source, 'pg_tblspc'));
    writeFileSync(join(source, 'PG_VERSION'), '17\n');
    writeFileSync(join(source, 'base', '1', '112'), Buffer.alloc(8192, 7));
    writeFileSync(join(source, 'base', '1', 'odd'), Buffer.alloc(513, 1));
    writeFileSync(join(source, 'empty'), '');
    template = join(work, 'template.tar.gz');
    writeFileSync(template, gzipSync(packTar(source)));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('unpacks what it packed: files, their bytes and empty directories', () => {
    const target = join(work, 'target');
    mkdirSync(target);
    unpackTar(packTar(source), target);
    expect(tree(target)).toEqual(tree(source));
  });

  it('makes a missing or empty database directory from the template, owner-only', () => {
    for (const dbPath of [join(work, 'missing', 'db'), join(work, 'empty-db')]) {
      if (dbPath.endsWith('empty-db')) mkdirSync(dbPath);
      expect(restoreEmbeddedTemplate(dbPath, template)).toBe(true);
      expect(tree(dbPath)).toEqual(tree(source));
      expect(statSync(dbPath).mode & 0o777).toBe(0o700);
      expect(existsSync(`${dbPath}.init`)).toBe(false);
    }
  });

  it('leaves a database directory with anything in it to PGlite', () => {
    const dbPath = join(work, 'db');
    mkdirSync(dbPath);
    writeFileSync(join(dbPath, 'PG_VERSION'), '16\n');
    expect(restoreEmbeddedTemplate(dbPath, template)).toBe(false);
    expect(tree(dbPath)).toEqual({ PG_VERSION: Buffer.from('16\n').toString('base64') });
  });

  it('does nothing without a template', () => {
    const dbPath = join(work, 'db');
    expect(restoreEmbeddedTemplate(dbPath, join(work, 'none.tar.gz'))).toBe(false);
    expect(existsSync(dbPath)).toBe(false);
  });

  it('replaces what an interrupted first start left beside the database directory', () => {
    const dbPath = join(work, 'db');
    mkdirSync(`${dbPath}.init/base`, { recursive: true });
    writeFileSync(`${dbPath}.init/base/half`, 'half-written');
    expect(restoreEmbeddedTemplate(dbPath, template)).toBe(true);
    expect(tree(dbPath)).toEqual(tree(source));
    expect(existsSync(`${dbPath}.init`)).toBe(false);
  });

  it.each([
    ['a path out of the directory', () => archiveWith('../escaped'), /refusing the path/],
    ['an absolute path', () => archiveWith('/etc/escaped'), /refusing the path/],
    ['a damaged header', () => packTar(source).fill(0x41, 0, 2), /checksum/],
    ['a file cut short', () => packTar(source).subarray(0, 3000), /cut short/],
    ['an archive without its end', () => packTar(source).subarray(0, 1024), /no end/],
  ])('refuses %s and leaves no database behind', (_what, archive, message) => {
    const dbPath = join(work, 'db');
    const broken = join(work, 'broken.tar.gz');
    writeFileSync(broken, gzipSync(archive()));
    expect(() => restoreEmbeddedTemplate(dbPath, broken)).toThrow(message);
    expect(existsSync(dbPath)).toBe(false);
    expect(existsSync(`${dbPath}.init`)).toBe(false);
    expect(existsSync(join(work, 'escaped'))).toBe(false);
  });
});
