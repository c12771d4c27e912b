import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createProject, createServicesDatabase, TEST_MODE, waitFor } from '../support/app';
import { freePort, jsonLines, spawnService } from '../support/service-process';

/**
 * `PROCESSES=N` starts N service processes on one port, sharing PostgreSQL (and Redis). It needs
 * a PostgreSQL server: `npm run test:services` runs the processes against the machine's
 * PostgreSQL and Redis; `npm test` (embedded, nothing running) checks that the embedded mode,
 * whose database lives inside one process, refuses it with one clear line.
 */
// Not on the session fixture: it spawns service processes (PROCESSES=N) and checks how they start and exit.
describe('PROCESSES: several service processes behind one port', () => {
  it('gives up with exit code 1 when the processes keep failing to start, instead of restarting them in a loop', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-cluster-'));
    try {
      // Nothing listens on this port: every process fails while connecting to its database.
      const service = spawnService({ DATA_DIR: dataDir, PROCESSES: '2', DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/mailroom`, LOG_LEVEL: 'info' });
      expect(await service.exited).toBe(1);
      const lines = jsonLines(service.stdout());
      expect(lines.filter((l) => l.msg === 'failed to start').length).toBeGreaterThanOrEqual(5);
      expect(lines.filter((l) => l.msg === 'a service process exited; starting a replacement').length).toBeGreaterThanOrEqual(3);
      expect(lines.filter((l) => l.component === 'cluster' && l.level === 60).map((l) => l.msg)).toEqual(['service processes keep failing to start; stopping']);
      expect(lines.at(-1)).toMatchObject({ component: 'cluster', reason: 'startup failures', msg: 'stopping the service processes' });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  if (TEST_MODE === 'embedded') {
    it('is refused without DATABASE_URL, with one clear line', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-cluster-'));
      try {
        const service = spawnService({ DATA_DIR: dataDir, PROCESSES: '2' });
        expect(await service.exited).toBe(78);
        expect(service.stderr().trim().split('\n')).toEqual(['Configuration error: PROCESSES above 1 requires DATABASE_URL (the embedded database lives inside one process)']);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 60_000);
    return;
  }

  let database: { url: string; drop(): Promise<void> };
  const redisEnv = { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `mrtest:${process.pid}:${randomBytes(4).toString('hex')}` };
  beforeAll(async () => {
    database = await createServicesDatabase();
  });
  afterAll(() => database?.drop());

  it('shares one port and one state, replaces a process that dies, and drains every process on SIGINT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-cluster-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const service = spawnService({
      ...redisEnv,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      PROCESSES: '2',
    });
    const lines = () => jsonLines(service.stdout());
    const listening = () => lines().filter((l) => typeof l.msg === 'string' && l.msg.startsWith('Mailroom listening'));
    try {
      await waitFor(
        async () => {
          if (service.child.exitCode !== null) throw new Error(`service exited: ${service.stderr()}${service.stdout().slice(-2000)}`);
          return listening().length >= 2 ? true : undefined;
        },
        120_000,
        100,
      );
      const pids = new Set(listening().map((l) => l.pid));
      expect(pids.size).toBe(2);
      expect(pids.has(service.child.pid)).toBe(false);

      // A session and keys made through one process work in the other: the state is shared.
      const project = await createProject(base);
      for (let i = 0; i < 12; i++) {
        await request(base).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).set('Connection', 'close').expect(200);
      }
      const servedBy = new Set(lines().filter((l) => l.component === 'http' && l.path === '/v1/ping').map((l) => l.pid));
      expect(servedBy).toEqual(pids);

      // Whichever process answers a scrape, /metrics counts the requests of all of them.
      for (let i = 0; i < 4; i++) {
        const scrape = await request(base).get('/metrics').set('Connection', 'close').expect(200);
        const pings = /^http_requests_total\{[^}]*route="\/v1\/ping"[^}]*status="200"[^}]*\} (\d+)$/m.exec(scrape.text);
        expect(Number(pings?.[1])).toBe(12);
      }

      // The queue workers run in the processes: a send reaches the outbox.
      const sent = await request(base)
        .post('/v1/send')
        .set('Authorization', `Bearer ${project.secretKey}`)
        .send({ to: 'reader@example.com', from: 'hello@example.com', subject: 'Clustered', body: '<p>Hi</p>' })
        .expect(200);
      const emailId: string = sent.body.data.emails[0].email;
      await waitFor(async () => (existsSync(join(dataDir, 'outbox', `${emailId}.eml`)) ? true : undefined), 30_000);

      // A process that dies is replaced; the port keeps answering meanwhile.
      const victim = [...pids][0] as number;
      process.kill(victim, 'SIGKILL');
      await waitFor(async () => (lines().some((l) => l.component === 'cluster' && l.pid === service.child.pid && l.child === victim && l.msg === 'a service process exited; starting a replacement') ? true : undefined), 30_000);
      await request(base).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(200);
      const replacement = await waitFor(
        async () => listening().map((l) => l.pid).find((pid) => !pids.has(pid)),
        120_000,
        100,
      );
      expect(replacement).not.toBe(victim);

      // SIGINT to the primary: both live processes drain and stop cleanly, then the primary exits 0.
      service.child.kill('SIGINT');
      expect(await service.exited).toBe(0);
      const stopped = new Set(lines().filter((l) => l.msg === 'stopped cleanly').map((l) => l.pid));
      expect(stopped).toEqual(new Set([[...pids][1], replacement]));
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
