// Builds dist/ (app and migrations) when it is missing or older than the sources; used by
// `npm start` and `npm run migration:*`, so neither runs yesterday's build.
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    newest = Math.max(newest, name.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when dist/ is current. A checkout without sources (the Docker image) counts as built. */
function isBuilt() {
  const entry = join(root, 'dist', 'main.js');
  if (!existsSync(entry)) return false;
  const sources = ['src', 'migrations'].map((d) => join(root, d)).filter((d) => existsSync(d));
  return sources.every((dir) => newestMtime(dir) <= statSync(entry).mtimeMs);
}

function buildIfStale() {
  if (isBuilt()) return;
  console.log('Building Mailroom…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}

module.exports = { buildIfStale, root };
