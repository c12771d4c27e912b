#!/usr/bin/env node
// `npm run mcp`: the MCP server (src/mcp/main.ts) over stdio. Like `npm start`, it builds dist/
// first when it is missing or older than the sources, but with the build's output on stderr:
// stdout is the protocol channel. MCP clients should launch `node dist/mcp/main.js` directly
// (npm itself prints a banner on stdout unless run with --silent).
const { execSync, spawn } = require('node:child_process');
const { join } = require('node:path');
const { isBuilt, root } = require('./build-if-stale');

if (!isBuilt()) {
  process.stderr.write('Building Mailroom…\n');
  execSync('npm run build', { cwd: root, stdio: ['ignore', 2, 2] });
}
const child = spawn(process.execPath, [join(root, 'dist', 'mcp', 'main.js')], { cwd: process.cwd(), env: process.env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
