'use strict';
// Starts the built service (dist/main.js) as a child process in `embedded` or `services` mode.
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const net = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { ROOT, ENTRY, ensureBuilt } = require('./build');
const { serviceProcess } = require('../../scripts/service-env');

const ADMIN_DATABASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Benchmarks measure throughput, so the per-project rate limit is lifted unless a suite sets it. */
const BENCH_DEFAULT_ENV = { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '10000000' };

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether PostgreSQL and Redis answer on their bench URLs (services mode is skipped otherwise). */
async function servicesAvailable() {
  try {
    const { Client } = require('pg');
    const client = new Client({ connectionString: ADMIN_DATABASE_URL, connectionTimeoutMillis: 2000 });
    await client.connect();
    await client.end();
  } catch {
    return false;
  }
  try {
    const Redis = require('ioredis');
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null });
    await redis.connect();
    await redis.ping();
    redis.disconnect();
  } catch {
    return false;
  }
  return true;
}

async function createDatabase() {
  const { Client } = require('pg');
  const name = `mailroom_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: ADMIN_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function dropRedisPrefix(prefix) {
  const Redis = require('ioredis');
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Spawns `node dist/main.js` and waits until `GET /health` answers 200.
 * options: { mode: 'embedded'|'services', env: {...}, dataDir?: string (kept when given), timeoutMs,
 *   workers?: N (services only: the spawned process is `ROLE=api` and N more run `ROLE=worker`
 *   on the same database and queue, the docker/compose.yml topology), plainNode?: true (embedded:
 *   without the environment of scripts/service-env.js that `npm start` gives the service),
 *   nodeArgs?: [flags] (node flags after those of scripts/service-env.js, e.g. a V8 option to compare) }
 * Returns { url, port, pid, mode, dataDir, startupMs, child, workerPids, rssBytes(), logs(), stop() }.
 */
async function startApp(options = {}) {
  const mode = options.mode || 'embedded';
  ensureBuilt();
  const port = await freePort();
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir || mkdtempSync(join(tmpdir(), 'mailroom-bench-'));
  const env = { ...process.env, ...BENCH_DEFAULT_ENV, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  let database;
  let redisPrefix;
  if (mode === 'services') {
    database = await createDatabase();
    redisPrefix = `mrbench:${process.pid}:${randomBytes(4).toString('hex')}`;
    // databaseUrl(url): what the processes get instead (e.g. a fault proxy in front of the bench database).
    const appDatabaseUrl = options.databaseUrl ? await options.databaseUrl(database.url) : database.url;
    Object.assign(env, { DATABASE_URL: appDatabaseUrl, REDIS_URL: REDIS_URL, REDIS_PREFIX: redisPrefix });
  } else if (mode !== 'embedded') {
    throw new Error(`unknown mode ${mode}`);
  }
  Object.assign(env, options.env || {});
  const workerCount = options.workers || 0;
  if (workerCount > 0) {
    if (mode !== 'services') throw new Error('workers: separate worker processes need services mode');
    env.ROLE = 'api';
  }

  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  // BENCH_NODE_ARGS: extra node flags for the service only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = [...(options.nodeArgs || []), ...(process.env.BENCH_NODE_ARGS || '').split(/\s+/).filter(Boolean)];
  const processes = [];
  /** Spawns one service process whose output joins `output`; `exitInfo` is set once it exits. */
  const launch = (processEnv) => {
    // The environment `npm start` gives it (scripts/service-env.js), unless `plainNode`.
    const service = options.plainNode ? { env: processEnv, args: [] } : serviceProcess(processEnv);
    const proc = { child: spawn(process.execPath, [...service.args, ...nodeArgs, ENTRY], { cwd: ROOT, env: service.env, stdio: ['ignore', 'pipe', 'pipe'] }) };
    proc.child.stdout.on('data', keep);
    proc.child.stderr.on('data', keep);
    proc.exited = new Promise((resolve) => proc.child.once('exit', (code, signal) => resolve((proc.exitInfo = { code, signal }))));
    processes.push(proc);
    return proc;
  };
  const timeoutMs = options.timeoutMs || 60_000;
  /** Resolves once `GET /health` on `processPort` is 200 (within `timeoutMs` of this call); otherwise stops every process, cleans up and throws. */
  const untilHealthy = async (proc, processPort, what) => {
    // Each process gets its own time: a worker added an hour into a run is not judged by the API's start.
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${processPort}/health`).catch(() => null);
      if (res && res.status === 200) return;
      const failure = proc.exitInfo
        ? `${what} exited during start (code ${proc.exitInfo.code}, signal ${proc.exitInfo.signal})`
        : Date.now() > deadline && `${what} did not answer /health within ${timeoutMs} ms`;
      if (failure) {
        for (const p of processes) p.child.kill('SIGKILL');
        await Promise.all(processes.map((p) => p.exited));
        await cleanup();
        throw new Error(`${failure}:\n${output.join('').slice(-4000)}`);
      }
      await sleep(10);
    }
  };

  const spawnedAt = process.hrtime.bigint();
  const main = launch(env);
  const { child, exited } = main;
  await untilHealthy(main, port, 'app');
  const startupMs = Number(process.hrtime.bigint() - spawnedAt) / 1e6;
  const url = `http://127.0.0.1:${port}`;

  main.port = port;
  main.role = env.ROLE || 'all';
  /** One more `ROLE=worker` process on the same database and queue (e.g. in place of a killed one). */
  const addWorker = async () => {
    const workerPort = await freePort();
    const worker = launch({ ...env, ROLE: 'worker', PORT: String(workerPort) });
    Object.assign(worker, { port: workerPort, role: 'worker' });
    await untilHealthy(worker, workerPort, 'worker');
    return worker;
  };
  // Separate worker processes, started once the API has migrated the database.
  for (let i = 0; i < workerCount; i++) await addWorker();
  const workers = processes.slice(1);

  async function cleanup() {
    if (database) await database.drop().catch(() => undefined);
    if (redisPrefix) await dropRedisPrefix(redisPrefix).catch(() => undefined);
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  }

  let stopping;
  return {
    url,
    port,
    pid: child.pid,
    mode,
    dataDir,
    startupMs,
    child,
    workerPids: workers.map((w) => w.child.pid),
    /** Every process started so far: { child, port, role, exitInfo? } (the API first). */
    processes: () => processes.slice(),
    /** Starts one more worker process (services with `workers`); resolves once it answers /health. */
    async addWorker() {
      const worker = await addWorker();
      workers.push(worker);
      return worker;
    },
    exited,
    logs: () => output.join(''),
    /** Resident set size of the child, from /proc (Linux). */
    rssBytes() {
      const status = require('node:fs').readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
      return kb * 1024;
    },
    /** SIGINT (graceful), SIGKILL after `graceMs`; resolves with { code, signal, stopMs }. */
    stop({ graceMs = 20_000, keepData = false } = {}) {
      if (!stopping) {
        stopping = (async () => {
          const t0 = Date.now();
          for (const p of processes) if (!p.exitInfo) p.child.kill('SIGINT');
          const timer = setTimeout(() => processes.forEach((p) => p.child.kill('SIGKILL')), graceMs);
          const info = await exited;
          await Promise.all(workers.map((w) => w.exited));
          clearTimeout(timer);
          if (!keepData) await cleanup();
          else if (database) await database.drop().catch(() => undefined);
          return { ...info, stopMs: Date.now() - t0 };
        })();
      }
      return stopping;
    },
  };
}

/** A JSON client of the API with the project's secret key: `call(method, path, body?)` → the parsed body (null for 204); throws on >= 300. */
function projectApi(baseUrl, secretKey) {
  const headers = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' };
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body && JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status}: ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
}

/** Signs up a fresh user and creates a project over HTTP; returns { id, secretKey, publicKey, cookie, email }. */
async function createProject(baseUrl, name = 'Bench project') {
  const email = `bench-${randomBytes(6).toString('hex')}@example.com`;
  const signup = await fetch(`${baseUrl}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const cookie = signup.headers.getSetCookie()[0].split(';')[0];
  const res = await fetch(`${baseUrl}/users/@me/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`create project failed: ${res.status} ${await res.text()}`);
  const project = await res.json();
  return { id: project.id, secretKey: project.secret, publicKey: project.public, cookie, email };
}

module.exports = { startApp, createProject, projectApi, createDatabase, dropRedisPrefix, servicesAvailable, freePort, sleep, ADMIN_DATABASE_URL, REDIS_URL };
