import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types';
import { AppConfig, loadConfig } from '../../src/config/config';
import { StatementRunner } from '../../src/platform/database/statement-runner';
import { createRuntime, Runtime } from '../../src/platform/runtime';
import { migratedImage } from './migrated-image';
import { freePort, modeEnv, spawnReady, stopService, TEST_SERVICE_ENV } from './service-process';
import { pause } from './wait';

/**
 * `npm test` runs every suite on the embedded database with queues in it; `npm run test:services`
 * (MAILROOM_TEST_MODE=services) runs the same suites on the machine's PostgreSQL and Redis,
 * each suite in a fresh database and Redis prefix.
 */
export const TEST_MODE: 'embedded' | 'services' = process.env.MAILROOM_TEST_MODE === 'services' ? 'services' : 'embedded';

export interface TestApp {
  runtime: Runtime;
  config: AppConfig;
  http: App;
  dataDir: string;
  close(): Promise<void>;
}

/** A fresh database on the machine's PostgreSQL (`TEST_DATABASE_URL`), dropped by `drop()`. */
export async function createServicesDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `mailroom_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestAppOptions {
  /**
   * Embedded database on disk in `dataDir` (in every test mode) instead of in memory, and the
   * secret generated into it; `close()` keeps a given `dataDir`, so a second start reopens it.
   */
  persistent?: boolean;
  dataDir?: string;
}

/** Boots the real application on a loopback port with its own data dir; `env` overrides variables. */
export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'mailroom-test-'));
  let database: { url: string; drop: () => Promise<void> } | undefined;
  const baseEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    ...TEST_SERVICE_ENV,
  };
  if (!options.persistent) baseEnv.APP_SECRET = randomBytes(32).toString('hex');
  if (TEST_MODE === 'services' && !options.persistent) {
    database = await createServicesDatabase();
    baseEnv.DATABASE_URL = database.url;
    baseEnv.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    baseEnv.REDIS_PREFIX = `mrtest:${process.pid}:${randomBytes(4).toString('hex')}`;
  }
  const config = loadConfig({ ...baseEnv, ...env });
  const inMemoryDatabase = !options.persistent;
  const inMemoryImage = inMemoryDatabase && TEST_MODE === 'embedded' ? await migratedImage() : undefined;
  const runtime = await createRuntime(config, { inMemoryDatabase, inMemoryImage });
  await runtime.app.listen(0, '127.0.0.1');
  const http = runtime.app.getHttpServer() as App;
  return {
    runtime,
    config,
    http,
    dataDir,
    async close() {
      await runtime.stop();
      await database?.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestProject {
  id: string;
  secretKey: string;
  publicKey: string;
  cookie: string;
  userId: string;
  email: string;
}

/** Signs up a fresh user through the API; returns their id, email and session cookie. */
export async function signUp(http: App, prefix = 'user'): Promise<{ userId: string; email: string; cookie: string }> {
  const email = `${prefix}-${randomBytes(6).toString('hex')}@example.com`;
  const signup = await request(http).post('/auth/signup').send({ email, password: 'correct horse battery' }).expect(201);
  return { userId: signup.body.id, email, cookie: [signup.headers['set-cookie']].flat()[0].split(';')[0] };
}

/** Signs up a fresh user through the API and creates a project; returns its keys and the session cookie. */
export async function createProject(http: App, name = 'Test project'): Promise<TestProject> {
  const { userId, email, cookie } = await signUp(http, 'owner');
  const project = await request(http)
    .post('/users/@me/projects')
    .set('Cookie', cookie)
    .set('X-Requested-With', 'XMLHttpRequest')
    .send({ name })
    .expect(201);
  return { id: project.body.id, secretKey: project.body.secret, publicKey: project.body.public, cookie, userId, email };
}

/**
 * A database slower than loopback supertest can keep busy: every statement of the app's runner
 * starts `ms` late, so calls pile up while one is in flight and really get batched (as under
 * production load).
 */
export function slowStatements(app: TestApp, ms = 15): void {
  const statements = app.runtime.app.get(StatementRunner);
  const run = statements.run.bind(statements);
  statements.run = async (...args: Parameters<typeof run>) => {
    await pause(ms, 'a database slower than loopback');
    return run(...args);
  };
}

export { eventually, jitter, pause, waitFor } from './wait';

/** A spawned service a test may kill with SIGKILL and start again on the same data (and database, in services mode). */
export interface KillableService {
  base: string;
  dataDir: string;
  /** SIGKILL, wait for the exit, start again and wait until ready. */
  killAndRestart(): Promise<void>;
}

/**
 * Runs `body` against a service spawned as its own process (`spawnReady`), on a fresh data dir and,
 * in services mode, a database of its own; stops and removes both afterwards. For crash suites.
 */
export async function withKillableService(name: string, body: (service: KillableService) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), `mailroom-${name}-crash-`));
  const database = TEST_MODE === 'services' ? await createServicesDatabase() : null;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', APP_SECRET: randomBytes(32).toString('hex'), ...modeEnv(database) };
  let service = await spawnReady(env, base);
  try {
    await body({
      base,
      dataDir,
      killAndRestart: async () => {
        service.child.kill('SIGKILL');
        await service.exited;
        service = await spawnReady(env, base);
      },
    });
  } finally {
    await stopService(service);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
