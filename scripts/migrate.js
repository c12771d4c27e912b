#!/usr/bin/env node
// `npm run migration:run|revert|generate -- <Name>`. run/revert use the compiled build against
// DATABASE_URL (or the embedded database in $DATA_DIR/db); generate diffs the entities against it.
const { execSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const [command, name] = process.argv.slice(2);

if (command === 'generate') {
  if (!name) {
    console.error('usage: npm run migration:generate -- <Name>');
    process.exit(2);
  }
  execSync(`npx typeorm-ts-node-commonjs migration:generate -d src/platform/database/cli-data-source.ts migrations/${name}`, { cwd: root, stdio: 'inherit' });
  process.exit(0);
}
if (command !== 'run' && command !== 'revert') {
  console.error('usage: migrate.js run|revert|generate');
  process.exit(2);
}
if (!existsSync(join(root, 'dist', 'platform', 'database', 'migrate-cli.js'))) execSync('npm run build', { cwd: root, stdio: 'inherit' });
require(join(root, 'dist', 'platform', 'database', 'migrate-cli.js'))
  .main(command)
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
