#!/usr/bin/env node
// Runs the README's curl examples as a new user pastes them: every ```sh block that calls the
// service (http://localhost:8080), in order, in one bash, against a running service. Any answer
// that is not 2xx stops the run with a non-zero exit (curl --fail-with-body under `set -e`).
//
//   node scripts/readme-curls.js [baseUrl] [workDir]
//
// baseUrl (default http://localhost:8080) replaces the README's address, for a service started on
// another port (CI's smoke test); workDir (default a new temporary directory) is where the blocks
// run (the walkthrough writes cookies.txt there).
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const README_BASE = 'http://localhost:8080';

/** The README's shell blocks that call the service, in order. */
function serviceBlocks(markdown) {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  return blocks.filter((block) => /\bcurl\b/.test(block) && block.includes(README_BASE));
}

function main() {
  const base = (process.argv[2] ?? README_BASE).replace(/\/+$/, '');
  const workDir = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'mailroom-readme-'));
  const blocks = serviceBlocks(readFileSync(join(__dirname, '..', 'README.md'), 'utf8'));
  if (blocks.length === 0) {
    console.error('readme-curls: no shell block of README.md calls the service');
    process.exit(1);
  }
  const script = [
    'set -euo pipefail',
    // As written, plus: a non-2xx answer fails (its body is still printed), and each answer ends its line.
    'curl() { command curl --fail-with-body -w "\\n" "$@"; }',
    ...blocks.map((block, i) => `echo "--- README block ${i + 1}/${blocks.length}"\n${block.split(README_BASE).join(base)}`),
  ].join('\n');
  const run = spawnSync('bash', ['-c', script], { cwd: workDir, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`readme-curls: a README example failed (exit ${run.status ?? run.signal}); the output above shows which`);
    process.exit(1);
  }
  console.log(`readme-curls: ${blocks.length} README blocks ran against ${base}`);
}

main();
