#!/usr/bin/env node
// `npm start`: builds when dist/ is missing or older than the sources, then runs the service in
// this process's place (signals pass straight through, so Ctrl-C stops it gracefully).
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { buildIfStale, root } = require('./build-if-stale');
const { serviceProcess } = require('./service-env');

buildIfStale();
const service = serviceProcess(process.env);
const child = spawn(process.execPath, [...service.args, join(root, 'dist', 'main.js')], { cwd: process.cwd(), env: service.env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
