import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ConfigError, loadConfig } from '../../src/config/config';
import { createProject, pause, startTestApp, waitFor } from '../support/app';
import { freePort, jsonLines, spawnService, untilListening } from '../support/service-process';

// Not on the session fixture: it restarts apps on one data dir and spawns service processes, checking start-up and shutdown.
describe('modes and process behaviour', () => {
  it('keeps the embedded database across a restart on the same DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-persist-'));
    try {
      const first = await startTestApp({}, { persistent: true, dataDir });
      const project = await createProject(first.http);
      await first.close();

      const second = await startTestApp({}, { persistent: true, dataDir });
      try {
        const res = await request(second.http).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(200);
        expect(res.body.data.projectId).toBe(project.id);
        // The session survives too: the secret was generated once into the data dir.
        await request(second.http).get('/users/@me').set('Cookie', project.cookie).expect(200);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ EMAIL_TRANSPORT: 'smtp' }, 'EMAIL_TRANSPORT=smtp requires SMTP_URL'],
    [{ PORT: 'eighty' }, 'PORT must be an integer'],
    [{ ROLE: 'everything' }, 'ROLE must be one of all, api, worker'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL must use'],
    [{ PROCESSES: '2' }, 'PROCESSES above 1 requires DATABASE_URL'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be at least 16 characters'],
    [{ PROCESSES: '0', DATABASE_URL: 'postgres://localhost/db' }, 'PROCESSES must be an integer between 1 and 64'],
    [{ EMBEDDED_DB_BUFFERS_MB: '0' }, 'EMBEDDED_DB_BUFFERS_MB must be an integer between 1 and 4096'],
  ])('rejects bad configuration %j with a message naming it', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: tmpdir(), APP_SECRET: 'x'.repeat(32), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tmpdir(), APP_SECRET: 'x'.repeat(32), ...env })).toThrow(message);
  });

  it('stops the process on a bad configuration with one clear line', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-config-'));
    try {
      const service = spawnService({ DATA_DIR: dataDir, EMAIL_TRANSPORT: 'smtp' });
      const code = await service.exited;
      expect(code).not.toBe(0);
      expect(service.stderr().trim().split('\n')).toEqual(['Configuration error: EMAIL_TRANSPORT=smtp requires SMTP_URL']);
      expect(service.stdout().trim()).toBe('');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('logs one JSON line per request with the request id, and on SIGINT finishes the in-flight request and exits cleanly', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-process-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const service = spawnService({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    try {
      await waitFor(
        async () => {
          if (service.child.exitCode !== null) throw new Error(`service exited: ${service.stderr()}${service.stdout().slice(-2000)}`);
          return fetch(`${base}/health`).then((r) => (r.ok ? true : undefined)).catch(() => undefined);
        },
        90_000,
        100,
      );

      const res = await fetch(`${base}/nope`, { headers: { 'X-Request-ID': 'trace-me-123' } });
      expect(res.status).toBe(404);
      const access = await waitFor(async () => jsonLines(service.stdout()).find((l) => l.requestId === 'trace-me-123'));
      expect(access).toMatchObject({ component: 'http', method: 'GET', path: '/nope', status: 404, requestId: 'trace-me-123' });
      expect(typeof access.ms).toBe('number');

      // A request whose body is still arriving when SIGINT comes must still get its answer.
      const first = '{"email":"late@example.com",';
      const rest = '"password":"whatever it is"}';
      const answer = new Promise<{ status?: number; error?: string }>((resolve) => {
        const req = httpRequest(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(first + rest)) } }, (r) => {
          r.resume();
          r.on('end', () => resolve({ status: r.statusCode }));
        });
        req.on('error', (err) => resolve({ error: err.message }));
        req.write(first);
        void pause(1_000, 'a slow client: the rest of the body comes a second later').then(() => req.end(rest));
      });
      await pause(200, "the request's first bytes reach the service before SIGINT");
      service.child.kill('SIGINT');
      expect(await answer).toEqual({ status: 401 });
      expect(await service.exited).toBe(0);
      expect(jsonLines(service.stdout()).some((l) => l.msg === 'stopped cleanly')).toBe(true);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses LOG_LEVEL=verbose, and any unknown level, like every other bad value: one line, exit 78', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-loglevel-'));
    try {
      const services = ['verbose', 'loud'].map((level) => ({ level, service: spawnService({ DATA_DIR: dataDir, LOG_LEVEL: level }) }));
      for (const { level, service } of services) {
        expect(await service.exited).toBe(78);
        expect(service.stderr().trim().split('\n')).toEqual([`Configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${level}")`]);
        expect(service.stdout().trim()).toBe('');
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('prints a few meaningful lines on a first start: Nest per-module start-up lines stay at debug', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-first-start-'));
    const port = await freePort();
    const service = spawnService({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    try {
      await untilListening(service);
      const lines = service.stdout().trim().split('\n');
      const messages = jsonLines(service.stdout()).map((l) => String(l.msg));
      expect(lines.length).toBeLessThanOrEqual(12);
      expect(messages.filter((m) => /dependencies initialized|Mapped \{|RoutesResolver|RouterExplorer|InstanceLoader|Nest application/.test(m))).toEqual([]);
      // One time format: every line is JSON with an ISO 8601 time.
      expect(jsonLines(service.stdout())).toHaveLength(lines.length);
      expect(jsonLines(service.stdout()).every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(String(l.time)))).toBe(true);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGINT');
      await service.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
