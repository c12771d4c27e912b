'use strict';
// Makes sure dist/ matches the sources (same rule as scripts/start.js) so benchmarks measure the current code.
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const ENTRY = join(ROOT, 'dist', 'main.js');

function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function isStale() {
  if (!existsSync(ENTRY)) return true;
  return Math.max(newestMtime(join(ROOT, 'src')), newestMtime(join(ROOT, 'migrations'))) > statSync(ENTRY).mtimeMs;
}

let checked = false;
/** Builds once per bench run when dist/ is missing or older than src/ or migrations/. */
function ensureBuilt({ force = false } = {}) {
  if (checked && !force) return;
  checked = true;
  if (force || isStale()) {
    process.stderr.write('bench: building (dist/ is stale)…\n');
    execSync('npm run build', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

module.exports = { ROOT, ENTRY, ensureBuilt, isStale };
