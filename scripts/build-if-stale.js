// Builds dist/ (app, migrations and the web dashboard) when it is missing or older than the
// sources; used by `npm start` and `npm run migration:*`, so neither runs yesterday's build.
const { execFileSync, execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');

function newestMtime(path) {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path, { withFileTypes: true })) {
    newest = Math.max(newest, newestMtime(join(path, name.name)));
  }
  return newest;
}

/** True when `output` exists and is newer than every existing path of `sources`. */
function isCurrent(output, sources) {
  const entry = join(root, output);
  if (!existsSync(entry)) return false;
  const built = statSync(entry).mtimeMs;
  return sources
    .map((p) => join(root, p))
    .filter((p) => existsSync(p))
    .every((p) => newestMtime(p) <= built);
}

/** True when dist/ is current. A checkout without sources (the Docker image) counts as built. */
function isBuilt() {
  return isCurrent('dist/main.js', ['src', 'migrations']);
}

/** The dashboard (dist/web): current, or no web sources to build it from. */
function isWebBuilt() {
  if (!existsSync(join(root, 'web'))) return true;
  return isCurrent('dist/web/index.html', ['web/src', 'web/public', 'web/index.html', 'web/vite.config.mts']);
}

/**
 * The embedded database's template for the installed PGlite (src/platform/database/embedded-template.ts),
 * which a first start unpacks instead of running initdb. Missing after a PGlite upgrade, or after a
 * `nest build` on its own; only the embedded mode (no DATABASE_URL) uses it.
 */
function hasEmbeddedTemplate() {
  const module = join(root, 'dist', 'platform', 'database', 'embedded-template.js');
  if (!existsSync(module)) return true; // a build from before templates, which would not use one
  return existsSync(require(module).embeddedTemplatePath(root));
}

function buildIfStale() {
  if (!isBuilt()) {
    // `nest build` empties dist/, so the full build (which ends with the web app) runs.
    console.log('Building Mailroom…');
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
    return;
  }
  if (!isWebBuilt()) {
    console.log('Building the Mailroom dashboard…');
    execSync('npm run build:web', { cwd: root, stdio: 'inherit' });
  }
  if (!process.env.DATABASE_URL && !hasEmbeddedTemplate()) {
    // A process of its own: it runs initdb, whose memory goes back to the OS when it exits.
    console.log('Making the embedded database template…');
    execFileSync(process.execPath, [join(root, 'dist', 'platform', 'database', 'embedded-template-cli.js')], { cwd: root, stdio: 'inherit' });
  }
}

module.exports = { buildIfStale, isBuilt, root };
