import type { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { createProject, createServicesDatabase, jitter, TEST_MODE, waitFor } from '../support/app';
import { freePort, SpawnedService, spawnService, untilListening } from '../support/service-process';
import { apiClient, ApiReads, apiReads, importContacts as importCsv } from '../support/session';
import { SmtpReceiver } from '../support/smtp-receiver';

const RECIPIENTS = 240;
const INTERRUPTED = /^interrupted while being handed to the transport/;

/**
 * Kill -9 against the release schedule in the api+worker topology (one ROLE=api process, one
 * ROLE=worker process SIGKILLed and restarted, one PostgreSQL database whatever the test mode):
 * inside a wave's write (the engine writes 10-contact batches, so a kill lands between batches of
 * a wave), between waves, while a window is closed, and between time-zone moments. Every
 * recipient gets exactly one message (or, killed during its very hand-over, is `uncertain`), and
 * no wave writes more than `batchSize`. Time moves by SQL on the campaign row, as a clock would.
 * The api+worker topology exists in services mode only: the suite runs in the services step (the
 * embedded step would start the very same processes on the same PostgreSQL again).
 */
(TEST_MODE === 'services' ? describe : describe.skip)('campaign release schedule under SIGKILL (api + worker)', () => {
  jest.setTimeout(300_000);

  let smtp: SmtpReceiver;
  let database: { url: string; drop: () => Promise<void> };
  let db: Client;
  let api: SpawnedService;
  let worker: SpawnedService;
  let base: string;
  let auth: string;
  let read: ApiReads;
  const dirs: string[] = [];
  let shared: Record<string, string>;

  const startWorker = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailroom-worker-'));
    dirs.push(dir);
    worker = spawnService({ ...shared, ROLE: 'worker', PORT: String(await freePort()), DATA_DIR: dir });
    await untilListening(worker);
  };
  const killWorker = async () => {
    worker.child.kill('SIGKILL');
    await worker.exited;
  };

  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    // A SIGKILLed sender resets its SMTP connections.
    (smtp as unknown as { server: EventEmitter }).server.on('error', () => undefined);
    database = await createServicesDatabase();
    const apiPort = await freePort();
    shared = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `mrtest:${process.pid}:${randomBytes(4).toString('hex')}`,
      HOST: '127.0.0.1',
      // `untilListening` reads the start-up line at info.
      LOG_LEVEL: 'info',
      APP_SECRET: randomBytes(32).toString('hex'),
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: smtp.url,
      DOMAIN_VERIFICATION: 'off',
      RATE_LIMIT_PER_MINUTE: '100000',
      CAMPAIGN_BATCH_SIZE: '10',
      SEND_LEASE_SECONDS: '10',
      EMAIL_STRANDED_AFTER_MS: '5000',
      EMAIL_SWEEP_INTERVAL_MS: '1000',
    };
    const dir = mkdtempSync(join(tmpdir(), 'mailroom-api-'));
    dirs.push(dir);
    api = spawnService({ ...shared, ROLE: 'api', PORT: String(apiPort), DATA_DIR: dir });
    await untilListening(api);
    base = `http://127.0.0.1:${apiPort}`;
    await startWorker();
    db = new Client({ connectionString: database.url });
    await db.connect();
    auth = `Bearer ${(await createProject(base)).secretKey}`;
    read = apiReads(apiClient(base, { Authorization: auth }));
  });

  afterAll(async () => {
    for (const service of [worker, api]) if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
    await Promise.all([worker?.exited, api?.exited]);
    await db?.end();
    await smtp?.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const importContacts = async (prefix: string, zoneOf: (i: number) => string) => {
    const csv = ['email,timezone', ...Array.from({ length: RECIPIENTS }, (_, i) => `${prefix}-${i}@crash.example,${zoneOf(i)}`)].join('\n');
    await importCsv(base, { Authorization: auth }, csv, 60_000);
  };
  /** A campaign to the contacts whose address starts with `prefix`. */
  const campaign = async (prefix: string, over: Record<string, unknown> = {}) => {
    const body = {
      name: prefix,
      subject: 'Hi {{email}}',
      body: '<p>Hi {{email}}</p>',
      from: 'news@example.com',
      type: 'MARKETING',
      audienceType: 'FILTERED',
      audienceCondition: { logic: 'AND', groups: [{ filters: [{ field: 'email', operator: 'contains', value: `${prefix}-` }] }] },
      ...over,
    };
    return (await request(base).post('/campaigns').set('Authorization', auth).send(body).expect(201)).body.data.id as string;
  };
  const get = async (id: string) => (await request(base).get(`/campaigns/${id}`).set('Authorization', auth).expect(200)).body;
  const stats = async (id: string) => (await request(base).get(`/campaigns/${id}/stats`).set('Authorization', auth).expect(200)).body;
  const written = (id: string) => read.emailCount({ campaignId: id });
  /**
   * `expected` emails written, and the release schedule has seen it: waiting for its next batch
   * (a wave's interval, a zone's moment) or with nobody left to write. Past this, a write beyond
   * the wave or moment would have been made already.
   */
  const settledAt = (id: string, expected: number) =>
    waitFor(async () => {
      if ((await written(id)) !== expected) return undefined;
      const st = await stats(id);
      return st.nextBatchAt !== null || st.waiting === 0 ? true : undefined;
    }, 30_000, 50);
  const received = (prefix: string) => smtp.messages.filter((m) => m.envelope.to.some((to) => to.startsWith(prefix))).length;
  /** The emails a kill left `queued` without a job or `sending`, aged past the sweep's 2 minutes (the sweep every second, lease 10 s). */
  // Time travel in SQL: no endpoint ages an email.
  const ageStranded = (id: string) => db.query(`UPDATE emails SET updated_at = now() - interval '3 minutes' WHERE campaign_id = $1 AND status = 'queued'`, [id]);
  /** SENT, then: every recipient once (or uncertain, killed in its hand-over), none twice, none left behind. */
  const verify = async (id: string, prefix: string) => {
    await waitFor(async () => {
      await ageStranded(id);
      return (await get(id)).status === 'SENT' ? true : undefined;
    }, 90_000, 250);
    const per = new Map<string, number>();
    for (const m of smtp.messages) for (const to of m.envelope.to) if (to.startsWith(prefix)) per.set(to, (per.get(to) ?? 0) + 1);
    const rows = await read.emails({ campaignId: id });
    const uncertain = rows.filter((r) => r.status === 'uncertain');
    const missing = [...Array(RECIPIENTS).keys()].map((i) => `${prefix}-${i}@crash.example`).filter((to) => !per.has(to));
    const duplicates = [...per.values()].filter((n) => n > 1).length;
    process.stdout.write(`release-crash ${prefix}: received ${per.size}, duplicates ${duplicates}, missing ${missing.length}, uncertain ${uncertain.length}\n`);
    expect(duplicates).toBe(0);
    expect(rows).toHaveLength(RECIPIENTS);
    for (const to of missing) expect(uncertain.map((r) => r.to)).toContain(to);
    for (const r of uncertain) expect(r.error).toMatch(INTERRUPTED);
    expect(rows.filter((r) => !['sent', 'delivered', 'uncertain'].includes(r.status))).toEqual([]);
  };

  it('waves: killed inside a wave and between waves, no wave passes batchSize and each contact gets one email', async () => {
    const prefix = 'wave';
    await importContacts(prefix, () => '');
    const id = await campaign(prefix, { delivery: { batchSize: 60, intervalMinutes: 5 } });
    await request(base).post(`/campaigns/${id}/send`).set('Authorization', auth).send({}).expect(200);
    // Each SIGKILL costs a worker start-up (seconds): killed inside the first wave and between the first two.
    for (let wave = 1; wave <= RECIPIENTS / 60; wave++) {
      const before = (wave - 1) * 60;
      if (wave === 1) {
        // Inside the wave's write: once its first batch is written, after a random moment.
        await waitFor(async () => ((await written(id)) > before ? true : undefined), 30_000, 10);
        await jitter(200);
        await killWorker();
        await startWorker();
      }
      // The wave completes, and writes no more than its size.
      await settledAt(id, wave * 60);
      expect(await written(id)).toBe(wave * 60);
      if (wave === 1) await killWorker();
      await ageStranded(id);
      // The interval passes. Time travel in SQL: no endpoint moves a wave's start.
      await db.query(`UPDATE campaigns SET wave_started_at = wave_started_at - interval '6 minutes' WHERE id = $1`, [id]);
      if (wave === 1) await startWorker();
    }
    await verify(id, prefix);
    expect(received(prefix)).toBeLessThanOrEqual(RECIPIENTS);
  });

  it('window and time zones: killed while a window is closed, while a moment waits and inside its walk', async () => {
    const prefix = 'zone';
    const zones = ['Pacific/Kiritimati', 'Europe/Paris', 'America/New_York'];
    await importContacts(prefix, (i) => zones[i % 3]);
    // Every day, a window closed now (UTC) that opens later.
    const h = new Date().getUTCHours();
    const [from, to] = h < 22 ? [h + 1, h + 2] : [0, 1];
    const hm = (n: number) => `${String(n).padStart(2, '0')}:00`;
    const id = await campaign(prefix, { delivery: { window: { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: hm(from), to: hm(to), timezone: 'UTC' } } });
    // 5 h ahead on the wall: Kiritimati's moment has passed, Paris and New York wait.
    const local = new Date(Date.now() + 5 * 3_600_000).toISOString().slice(0, 19);
    await request(base).post(`/campaigns/${id}/send`).set('Authorization', auth).send({ scheduledFor: local, timezone: 'recipient' }).expect(200);
    // The window is closed: nothing; killed there.
    await waitFor(async () => ((await stats(id)).nextBatchAt ? true : undefined), 30_000, 50);
    await killWorker();
    expect(await written(id)).toBe(0);
    // The clock reaches the window (restarted meanwhile): Kiritimati's moment is released.
    // Time travel in SQL: the window opened around now (no endpoint edits a sending campaign's delivery).
    await db.query(`UPDATE campaigns SET delivery = jsonb_set(delivery, '{window}', jsonb_build_object('days', delivery->'window'->'days', 'from', '00:00', 'to', '24:00', 'timezone', 'UTC')) WHERE id = $1`, [id]);
    await startWorker();
    let previous = 0;
    for (const hours of [0, 4.5, 6]) {
      if (hours > 0) {
        // Time passes: the wall time and the schedule's moment move back together.
        // Time travel in SQL: no endpoint moves a schedule's moment.
        await db.query(
          `UPDATE campaigns SET local_scheduled_for = to_char(local_scheduled_for::timestamp - make_interval(mins => $2), 'YYYY-MM-DD"T"HH24:MI:SS'), release_moment = release_moment - make_interval(mins => $2) WHERE id = $1`,
          [id, hours * 60],
        );
      }
      const expected = Math.round(((hours === 0 ? 1 : hours === 4.5 ? 2 : 3) * RECIPIENTS) / 3);
      if (hours === 4.5) {
        // Inside Paris's walk.
        await waitFor(async () => ((await written(id)) > previous ? true : undefined), 30_000, 10);
        await jitter(150);
        await killWorker();
        await ageStranded(id);
        await startWorker();
      }
      await settledAt(id, expected);
      expect(await written(id)).toBe(expected);
      previous = expected;
    }
    await verify(id, prefix);
  });
});
