import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait';

const ROOT = join(__dirname, '..', '..');

/**
 * The system's own variables a child process of a test needs (the executable search path and the
 * home directory), and nothing else of the test runner's environment: the service's configuration
 * is only what each test passes. Mailroom reads neither (see the end of .env.example).
 */
export const systemEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' });

/**
 * What every service a test starts has unless the test says otherwise: password hashes at 1 MiB
 * instead of 64 (~5 ms of CPU instead of ~0.2 s, a hash per signup and login, hundreds per run on
 * a two-core machine). The same argon2id code runs; only its memory parameter differs, as a small
 * machine's operator may set it.
 */
export const TEST_SERVICE_ENV: Readonly<Record<string, string>> = { PASSWORD_HASH_MEMORY_KIB: '1024' };

/**
 * The service as `npm start` runs it, but from the TypeScript sources (no build needed). A worker
 * keeps the usual priority (`WORKER_NICE=0` unless the caller sets it): beside the parallel suites
 * of a loaded CI machine, a lowered one starves it, and these tests are about behaviour, not about
 * who wins the CPU (the bench measures that).
 */
export function spawnService(env: Record<string, string>): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['-r', './test/support/ts-register.js', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...systemEnv(), ...TEST_SERVICE_ENV, WORKER_NICE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export type SpawnedService = ReturnType<typeof spawnService>;

/** Resolves once the service logs that it listens; fails at once if it exits first. */
export function untilListening(service: SpawnedService, timeoutMs = 120_000): Promise<true> {
  return waitFor(
    async () => {
      if (service.child.exitCode !== null) throw new Error(`service exited: ${service.stderr()}${service.stdout().slice(-2000)}`);
      return jsonLines(service.stdout()).some((l) => typeof l.msg === 'string' && l.msg.startsWith('Mailroom listening')) ? true : undefined;
    },
    timeoutMs,
    100,
  );
}

/**
 * The compose topology on loopback: a ROLE=api and a ROLE=worker process on one PostgreSQL
 * database and one Redis prefix, each with its own data directory; `run` gets their base URLs.
 * Both are stopped (and their directories removed) whatever `run` does.
 */
export async function withApiAndWorker(databaseUrl: string, run: (bases: { api: string; worker: string }) => Promise<void>): Promise<void> {
  const shared = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `mrtest:${process.pid}:${randomBytes(4).toString('hex')}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  const fleet = new ServiceFleet('mailroom-topology-', () => shared);
  try {
    const [api, worker] = [await fleet.spawn({ ROLE: 'api' }), await fleet.spawn({ ROLE: 'worker' })];
    await run({ api: api.base, worker: worker.base });
  } finally {
    await fleet.stopAll();
  }
}

/**
 * What a spawned service needs for the test mode: in services mode a database's URL, Redis and a
 * fresh Redis prefix; in embedded mode nothing (its data directory holds the database).
 */
export function modeEnv(database: { url: string } | null): Record<string, string> {
  return database ? { DATABASE_URL: database.url, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `mrtest:${process.pid}:${randomBytes(4).toString('hex')}` } : {};
}

/** Stops a spawned service with SIGINT, then SIGKILL if it has not exited within `graceMs`; nothing for one already gone. */
export async function stopService(service: SpawnedService, graceMs = 30_000): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  service.child.kill('SIGINT');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), graceMs);
  await service.exited;
  clearTimeout(timer);
}

/**
 * The service processes a suite spawns on shared settings (`env()`, read at each spawn), each on a
 * free port (unless `extra` names one) and in its own data directory unless `extra` names one;
 * `spawn` resolves once the process listens, or with `until: 'ready'` once `/health/ready` answers
 * 200. `stopAll` stops every one and removes the directories, whatever happened.
 */
export class ServiceFleet {
  private readonly spawned: SpawnedService[] = [];
  private readonly dirs: string[] = [];

  constructor(
    private readonly dirPrefix: string,
    private readonly env: () => Record<string, string>,
  ) {}

  async spawn(extra: Record<string, string>, until: 'listening' | 'ready' = 'listening'): Promise<SpawnedService & { base: string }> {
    const dir = extra.DATA_DIR ?? mkdtempSync(join(tmpdir(), this.dirPrefix));
    if (!this.dirs.includes(dir)) this.dirs.push(dir);
    const port = extra.PORT ?? String(await freePort());
    const base = `http://127.0.0.1:${port}`;
    const service = spawnService({ ...this.env(), PORT: port, DATA_DIR: dir, ...extra });
    this.spawned.push(service);
    await (until === 'ready' ? untilReady(service, base) : untilListening(service));
    return { ...service, base };
  }

  async stopAll(): Promise<void> {
    for (const service of this.spawned) await stopService(service);
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** Resolves once `base`'s `/health/ready` answers 200; fails at once if the service exits first. */
function untilReady(service: SpawnedService, base: string): Promise<true> {
  return waitFor(
    async () => {
      if (service.child.exitCode !== null) throw new Error(`service exited: ${service.stderr()}${service.stdout().slice(-2000)}`);
      const ready = await fetch(`${base}/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      return ready ? true : undefined;
    },
    120_000,
    100,
  );
}

/** Spawns the service and resolves once `base`'s `/health/ready` answers 200; fails at once if it exits first. */
export async function spawnReady(env: Record<string, string>, base: string): Promise<SpawnedService> {
  const service = spawnService(env);
  await untilReady(service, base);
  return service;
}
