#!/usr/bin/env node
// `npm start`: builds when dist/ is missing or older than the sources, then runs the service in
// this process's place (signals pass straight through, so Ctrl-C stops it gracefully).
const { execSync, spawn } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    newest = Math.max(newest, name.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sourcesChanged = () => Math.max(newestMtime(join(root, 'src')), newestMtime(join(root, 'migrations'))) > statSync(entry).mtimeMs;
if (!existsSync(entry) || sourcesChanged()) {
  console.log('Building Mailroom…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}

const child = spawn(process.execPath, [entry], { cwd: process.cwd(), stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
