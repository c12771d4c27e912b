import type { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createProject, createServicesDatabase, TEST_MODE, TestProject } from '../support/app';
import { freePort, SpawnedService, spawnService, untilListening } from '../support/service-process';
import { SmtpReceiver } from '../support/smtp-receiver';
import { jitter, waitFor } from '../support/wait';

const RECIPIENTS = 600;
const INTERRUPTED = /^interrupted while being handed to the transport/;

/**
 * An A/B campaign through SIGKILLs of the process that runs the engine (services mode: the
 * ROLE=worker process of the compose topology beside a ROLE=api one; embedded mode: the one
 * process, restarted on its data directory): killed while the test share is written, and right
 * after the winner is picked (the phase change and the first batches of the rest). Every recipient
 * gets exactly one message; an email caught in the pipeline's at-most-once window (killed during
 * its hand-over) must read `uncertain` and is counted apart, as in campaign-crash.e2e-spec.ts.
 * Small batches and a short send lease keep the test short.
 */
// Not on the session fixture: the service processes are spawned, and one is killed with SIGKILL.
describe('A/B campaign crash safety', () => {
  jest.setTimeout(300_000);

  it('sends every recipient exactly one message, the test variants then the winner, across SIGKILLs', async () => {
    const smtp = await SmtpReceiver.start();
    (smtp as unknown as { server: EventEmitter }).server.on('error', () => undefined);
    const dirs: string[] = [];
    const spawned: SpawnedService[] = [];
    const database = TEST_MODE === 'services' ? await createServicesDatabase() : null;
    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      APP_SECRET: randomBytes(32).toString('hex'),
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: smtp.url,
      DOMAIN_VERIFICATION: 'off',
      RATE_LIMIT_PER_MINUTE: '100000',
      SEND_LEASE_SECONDS: '10',
      EMAIL_STRANDED_AFTER_MS: '5000',
      EMAIL_SWEEP_INTERVAL_MS: '1000',
      CAMPAIGN_BATCH_SIZE: '40',
      CAMPAIGN_MAX_QUEUED: '80',
    };
    const spawnOn = async (extra: Record<string, string>) => {
      const dir = extra.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'mailroom-ab-crash-'));
      if (!dirs.includes(dir)) dirs.push(dir);
      const service = spawnService({ ...env, PORT: String(await freePort()), DATA_DIR: dir, ...extra });
      spawned.push(service);
      await untilListening(service);
      return service;
    };
    let base: string;
    let worker: SpawnedService;
    let startWorker: () => Promise<SpawnedService>;
    const kills: Array<{ at: string; received: number }> = [];
    const kill = async (at: string) => {
      worker.child.kill('SIGKILL');
      await worker.exited;
      kills.push({ at, received: smtp.count });
      worker = await startWorker();
    };
    try {
      if (database) {
        const shared = { DATABASE_URL: database.url, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `mrtest:${process.pid}:${randomBytes(4).toString('hex')}` };
        const apiPort = await freePort();
        base = `http://127.0.0.1:${apiPort}`;
        await spawnOn({ ...shared, ROLE: 'api', PORT: String(apiPort) });
        startWorker = () => spawnOn({ ...shared, ROLE: 'worker' });
      } else {
        const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-ab-crash-'));
        const port = String(await freePort());
        base = `http://127.0.0.1:${port}`;
        startWorker = () => spawnOn({ DATA_DIR: dataDir, PORT: port });
      }
      worker = await startWorker();
      const project: TestProject = await createProject(base);
      const call = (method: 'get' | 'post', path: string, body?: object) => {
        const req = request(base)[method](path).set('Authorization', `Bearer ${project.secretKey}`);
        return body ? req.send(body) : req;
      };
      const csv = ['email', ...Array.from({ length: RECIPIENTS }, (_, i) => `r${i}@abcrash.example`)].join('\n');
      const upload = await call('post', '/contacts/import').attach('file', Buffer.from(csv), { filename: 'r.csv', contentType: 'text/csv' }).expect(202);
      await waitFor(async () => ((await call('get', `/contacts/import/${upload.body.jobId as string}`).expect(200)).body.status === 'completed' ? true : undefined), 120_000, 200);
      const created = await call('post', '/campaigns', {
        name: 'AB crash',
        subject: 'A {{email}}',
        body: '<p>Hello {{email}}</p>',
        from: 'news@example.com',
        audienceType: 'ALL',
        abTest: { variants: [{ subject: 'B {{email}}' }], testPercent: 30, metric: 'opens', waitMinutes: 30 },
      }).expect(201);
      const id: string = created.body.data.id;
      const stats = async () => (await call('get', `/campaigns/${id}/stats`).expect(200)).body;
      await call('post', `/campaigns/${id}/send`).expect(200);

      // 1. While the test share is being written and sent.
      await waitFor(async () => (smtp.count > 20 ? true : undefined), 120_000, 20);
      await jitter(300);
      await kill('testing');
      const waiting = await waitFor(async () => {
        const s = await stats();
        return s.abTest?.phase === 'waiting' ? s : undefined;
      }, 120_000, 200);
      const testShare = (waiting.abTest.variants as Array<{ recipients: number }>).reduce((n, v) => n + v.recipients, 0);
      // 2. Right after the winner is picked: the phase change, the fresh cursor and the first batches of the rest
      // (a kill later in the rest is a plain campaign's, which campaign-crash.e2e-spec.ts covers).
      await call('post', `/campaigns/${id}/ab/winner`, { variant: 'B' }).expect(200);
      await jitter(200);
      await kill('winner picked');

      const final = await waitFor(async () => {
        const c = (await call('get', `/campaigns/${id}`).expect(200)).body;
        return c.status === 'SENT' ? c : undefined;
      }, 120_000, 500);
      const end = await stats();
      const uncertain: Array<{ to: string; error: string }> = (await call('get', '/v1/emails').query({ campaignId: id, status: 'uncertain', limit: 100 }).expect(200)).body.data;

      const per = new Map<string, number>();
      const subjects = { A: 0, B: 0 };
      for (const m of smtp.messages) {
        for (const to of m.envelope.to as string[]) per.set(to, (per.get(to) ?? 0) + 1);
        subjects[(m.parsed!.subject as string).startsWith('A ') ? 'A' : 'B']++;
      }
      const duplicates = [...per.values()].filter((n) => n > 1).length;
      const missing = [...Array(RECIPIENTS).keys()].map((i) => `r${i}@abcrash.example`).filter((to) => !per.has(to));
      process.stdout.write(
        `ab-test-crash (${TEST_MODE}): kills ${JSON.stringify(kills)}; test share ${testShare}; received ${smtp.count} (A ${subjects.A}, B ${subjects.B}), ` +
          `duplicates ${duplicates}, missing ${missing.length}, uncertain (at-most-once window) ${uncertain.length}\n`,
      );
      expect(duplicates).toBe(0);
      const uncertainTo = new Set(uncertain.map((u) => u.to));
      for (const to of missing) expect(uncertainTo.has(to)).toBe(true);
      for (const u of uncertain) expect(u.error).toMatch(INTERRUPTED);
      expect(final).toMatchObject({ status: 'SENT', totalRecipients: RECIPIENTS });
      expect(end.abTest).toMatchObject({ phase: 'winner', winner: 'B' });
      const [a, b] = end.abTest.variants as Array<{ recipients: number }>;
      expect(a.recipients + b.recipients).toBe(RECIPIENTS);
      // The test share is about 30%; everyone else got the winner.
      expect(testShare).toBeGreaterThan(RECIPIENTS * 0.2);
      expect(testShare).toBeLessThan(RECIPIENTS * 0.4);
      expect(subjects.A).toBeLessThanOrEqual(a.recipients);
    } finally {
      for (const service of spawned) {
        if (service.child.exitCode === null && service.child.signalCode === null) {
          service.child.kill('SIGINT');
          await service.exited;
        }
      }
      await smtp.close();
      await database?.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
