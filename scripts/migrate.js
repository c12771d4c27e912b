#!/usr/bin/env node
// `npm run migration:run|revert|generate -- <Name>`, against DATABASE_URL (or the embedded
// database in $DATA_DIR/db).
// - run/revert use the compiled build (rebuilt first when the sources are newer), so they work
//   the same in a checkout and in the Docker image, which holds dist/ only.
// - generate diffs the registered entities against a migrated database with TypeORM's CLI and
//   writes migrations/<timestamp>-<Name>.ts: from the TypeScript sources when ts-node is
//   installed (a checkout), from dist/ otherwise.
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { buildIfStale, root } = require('./build-if-stale');

const [command, name] = process.argv.slice(2);

function typeormCli(bin, args) {
  execFileSync(process.execPath, [require.resolve(`typeorm/cli${bin}`, { paths: [root] }), ...args], { cwd: root, stdio: 'inherit' });
}

if (command === 'generate') {
  if (!name || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
    console.error('usage: npm run migration:generate -- <Name> (letters and digits)');
    process.exit(2);
  }
  if (!process.env.DATABASE_URL) {
    console.error('migration:generate compares the entities with a database: set DATABASE_URL to one migrated with `npm run migration:run`');
    process.exit(2);
  }
  const fromSource = existsSync(join(root, 'src')) && existsSync(join(root, 'node_modules', 'ts-node'));
  if (!fromSource) buildIfStale();
  const dataSource = fromSource ? 'src/platform/database/cli-data-source.ts' : 'dist/platform/database/cli-data-source.js';
  try {
    typeormCli(fromSource ? '-ts-node-commonjs' : '', ['migration:generate', '-d', dataSource, `migrations/${name}`]);
  } catch (err) {
    process.exit(typeof err.status === 'number' ? err.status : 1);
  }
  process.exit(0);
}
if (command !== 'run' && command !== 'revert') {
  console.error('usage: migrate.js run|revert|generate');
  process.exit(2);
}
buildIfStale();
require(join(root, 'dist', 'platform', 'database', 'migrate-cli.js'))
  .main(command)
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
