#!/usr/bin/env node
// `node scripts/fuzz.js [runs] [seed]`: the e2e fuzz suite (test/e2e/fuzz.e2e-spec.ts) with many
// more seeded random variants per route than `npm test` tries (default 200), on the embedded
// database; MAILROOM_TEST_MODE=services runs it against PostgreSQL and Redis. A failure names
// the route and the input; rerun with the same seed to repeat it.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const [runs = '200', seed = String(Date.now() % 1_000_000_000)] = process.argv.slice(2);
console.log(`fuzz: FUZZ_RUNS=${runs} FUZZ_SEED=${seed}`);
const root = join(__dirname, '..');
const result = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', '--no-warnings', join(root, 'node_modules/jest/bin/jest.js'), '--config', join(root, 'jest.config.js'), 'test/e2e/fuzz.e2e-spec.ts', '-t', 'walks every route'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed } },
);
process.exit(result.status ?? 1);
