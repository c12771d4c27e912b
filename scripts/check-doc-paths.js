#!/usr/bin/env node
/**
 * Fails when a document names a file of the repository that does not exist: relative Markdown
 * links, and repository paths written in backticks (`src/…`, `docs/…`, `bench/…:104`). A doc that
 * points at a moved or deleted file misleads its reader; this keeps them honest (`npm run lint`).
 * Placeholders and patterns (`<module>`, `*`, `…`) are not paths and are skipped.
 */
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const ROOTS = ['src/', 'test/', 'docs/', 'bench/', 'scripts/', 'web/', 'migrations/', 'docker/', '.ci/', 'dist/'];

/** Made by a build, a run or the user, and ignored by git (dist/, bench/results/, docker/.env). */
function ignored(path) {
  for (const probe of [path, `${path}/`, `${path}/x`]) {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', probe], { cwd: ROOT, stdio: 'ignore' });
      return true;
    } catch {
      // not ignored in this form
    }
  }
  return false;
}

/** README.md, docs/, bench/ and every README inside src/ and web/ (not node_modules). */
function documents() {
  const found = ['README.md'];
  const walk = (dir) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md') && (dir.startsWith('docs') || dir.startsWith('bench') || name === 'README.md')) found.push(path);
    }
  };
  for (const dir of ['docs', 'bench', 'src', 'web', 'test', 'docker']) if (existsSync(join(ROOT, dir))) walk(dir);
  return found;
}

const isPattern = (p) => /[<>*…{}$]|\.\.\.|\s/.test(p);

/** A candidate named in `doc`; undefined when it exists (or is no path at all), else why not. */
function missing(doc, candidate, fromLink) {
  let path = candidate.replace(/#.*$/, '').replace(/:\d+(-\d+)?$/, '').replace(/\/$/, '');
  if (!path || isPattern(path) || /^[a-z]+:/i.test(path)) return undefined;
  const candidates = fromLink ? [join(dirname(doc), path)] : [path, join(dirname(doc), path)];
  return candidates.some((c) => existsSync(join(ROOT, c)) || ignored(c)) ? undefined : path;
}

const problems = [];
for (const doc of documents()) {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const lines = text.split('\n');
  let fenced = false;
  lines.forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return;
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      const bad = missing(doc, target, true);
      if (bad) problems.push(`${doc}:${i + 1}: link to ${target}, which does not exist`);
    }
    for (const m of line.matchAll(/`([^`\s]+)`/g)) {
      const token = m[1];
      if (!ROOTS.some((r) => token.startsWith(r))) continue;
      const bad = missing(doc, token, false);
      if (bad) problems.push(`${doc}:${i + 1}: names ${token}, which does not exist`);
    }
  });
}

if (problems.length) {
  console.error(`${problems.length} path(s) named in the docs do not exist (${relative(process.cwd(), ROOT) || '.'}):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log('doc paths: every file a document names exists');
