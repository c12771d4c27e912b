'use strict';
const { execSync } = require('node:child_process');
const { Client } = require('pg');

const ADMIN_DATABASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** The database the spawned service uses: its bench database (services) or its embedded PGlite port. */
async function databaseUrlOf(app) {
  if (app.mode === 'services') {
    const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1 ORDER BY oid DESC LIMIT 1`, [`mailroom_bench_${process.pid}_%`]);
    await admin.end();
    const url = new URL(ADMIN_DATABASE_URL);
    url.pathname = `/${rows[0].datname}`;
    return url.toString();
  }
  // Embedded: PGlite listens on a second loopback port of the child process.
  const ss = execSync('ss -ltnpH', { encoding: 'utf8' });
  const ports = ss
    .split('\n')
    .filter((line) => line.includes(`pid=${app.pid},`))
    .map((line) => Number(/127\.0\.0\.1:(\d+)/.exec(line)?.[1]))
    .filter((port) => port && port !== app.port);
  if (ports.length !== 1) throw new Error(`cannot find the embedded database port of pid ${app.pid}: ${ports}`);
  return `postgres://postgres:postgres@127.0.0.1:${ports[0]}/postgres`;
}

module.exports = { databaseUrlOf };
