import type { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { createProject, createServicesDatabase, TEST_MODE, waitFor } from '../support/app';
import { freePort, modeEnv, ServiceFleet, SpawnedService } from '../support/service-process';
import { SmtpReceiver } from '../support/smtp-receiver';
import { WebhookReceiver } from '../support/webhook-receiver';

const RECIPIENTS = 1_500;
/**
 * What "not stalled" means here: the goal is 5 s; a dead holder's lease or BullMQ's default
 * stalled-job check took about a minute. Generous for a loaded CI machine, far below that minute.
 */
const TAKEOVER_BOUND_MS = 15_000;

/**
 * Work one process holds for the deployment goes on at once when that process is killed with
 * SIGKILL, with every setting at its default (nothing here shortens a lease or a sweep):
 * - the event outbox: a worker killed in the middle of a consumer round (its webhook fan-out
 *   held on a table lock the test takes) leaves the consumers to the surviving worker, which
 *   delivers an event tracked after the kill within seconds (services mode: api + 2 workers);
 * - the send queue: workers killed mid-campaign leave their active jobs locked; a worker started
 *   again sends the next email within seconds, not after BullMQ's default one-minute stalled-job
 *   check (services mode: both workers killed; embedded mode: its one process).
 */
// Not on the session fixture: it spawns service processes and kills them with SIGKILL.
describe('takeover after a process is killed', () => {
  jest.setTimeout(300_000);

  let database: { url: string; drop(): Promise<void> } | null = null;
  let modeVars: Record<string, string> = {};
  /** Services mode: the ROLE=api process both tests share (it sends nothing itself). */
  let apiBase = '';
  const secret = randomBytes(32).toString('hex');
  const baseEnv = (): Record<string, string> => ({
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    APP_SECRET: secret,
    DOMAIN_VERIFICATION: 'off',
    RATE_LIMIT_PER_MINUTE: '100000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...modeVars,
  });

  const fleet = new ServiceFleet('mailroom-takeover-', baseEnv);
  const kill = async (service: SpawnedService) => {
    service.child.kill('SIGKILL');
    await service.exited;
  };

  beforeAll(async () => {
    database = TEST_MODE === 'services' ? await createServicesDatabase() : null;
    modeVars = modeEnv(database);
    if (database) {
      const apiPort = await freePort();
      apiBase = `http://127.0.0.1:${apiPort}`;
      await fleet.spawn({ ROLE: 'api', PORT: String(apiPort) });
    }
  }, 300_000);

  afterAll(async () => {
    await fleet.stopAll();
    await database?.drop();
  });

  if (TEST_MODE === 'services') {
    it('hands the event consumers of a worker killed mid-round to the surviving worker within seconds', async () => {
      const hooks = await WebhookReceiver.start();
      const blocker = new Client({ connectionString: database!.url });
      await blocker.connect();
      try {
        const base = apiBase;
        const first = await fleet.spawn({ ROLE: 'worker' });
        const project = await createProject(base);
        const auth = `Bearer ${project.secretKey}`;
        const created = (await request(base).post('/webhooks').set('Authorization', auth).send({ url: hooks.url('/takeover'), events: ['takeover.*'] }).expect(201)).body as { id: string; secret: string };
        hooks.secret('/takeover', created.secret);
        const track = async (event: string) => (await request(base).post('/v1/track').set('Authorization', auth).send({ email: 'takeover@example.com', event }).expect(200)).body.data.event as string;
        const arrival = (eventId: string) => hooks.waitForCall((c) => c.path === '/takeover' && c.webhookId === eventId && c.delivered, 120_000);

        // The outbox goes (a first event arrives), then its next round is held mid-fan-out: the
        // worker has taken the consumers and waits for the deliveries table.
        const beforeId = await track('takeover.before');
        await arrival(beforeId);
        // Its outcome written: the only write to the deliveries table left is the next fan-out's.
        await waitFor(async () => {
          const list = (await request(base).get(`/webhooks/${created.id}/deliveries`).set('Authorization', auth).expect(200)).body.data as Array<{ eventId: string; status: string }>;
          return list.some((d) => d.eventId === beforeId && d.status === 'succeeded') ? true : undefined;
        }, 30_000, 100);
        // Fault staged in SQL: a table lock holds the worker's next fan-out mid-round.
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE webhook_deliveries IN EXCLUSIVE MODE');
        await track('takeover.held');
        // Read in SQL: the worker waiting on that lock shows only in pg_locks.
        await waitFor(async () => {
          const { rows } = await blocker.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'webhook_deliveries'::regclass`);
          return rows[0].n > 0 ? true : undefined;
        }, 30_000, 50);
        // The survivor starts while the consumers are held, then their holder is killed.
        const survivor = await fleet.spawn({ ROLE: 'worker' });
        await kill(first);
        const killedAt = Date.now();
        // Fault lifted in SQL: the lock goes.
        await blocker.query('ROLLBACK');
        const after = await track('takeover.after');
        const arrived = await arrival(after);
        const takeoverMs = arrived.request.receivedAt.getTime() - killedAt;
        process.stdout.write(`worker-takeover (${TEST_MODE}): an event tracked after the kill of the outbox's holder reached its webhook ${takeoverMs} ms after the kill\n`);
        expect(survivor.child.exitCode).toBeNull();
        expect(takeoverMs).toBeLessThan(TAKEOVER_BOUND_MS);
        // The next test's workers send alone.
        survivor.child.kill('SIGINT');
        await survivor.exited;
      } finally {
        await blocker.end().catch(() => undefined);
        await hooks.close();
      }
    });
  }

  it('sends again within seconds of a worker starting after every worker was killed mid-campaign', async () => {
    const smtp = await SmtpReceiver.start({ parse: false });
    // A SIGKILLed sender resets its SMTP connections; the receiver's server reports each as an 'error' event.
    (smtp as unknown as { server: EventEmitter }).server.on('error', () => undefined);
    try {
      const mail = { EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url };
      let base: string;
      let workers: SpawnedService[] = [];
      /** Starts one worker again (services mode: one of the two; embedded: its one process). */
      let restart: () => Promise<SpawnedService>;
      if (TEST_MODE === 'services') {
        base = apiBase;
        restart = () => fleet.spawn({ ...mail, ROLE: 'worker' });
        workers = await Promise.all([restart(), restart()]);
      } else {
        // The embedded deployment is one process, restarted on its data directory and port.
        const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-takeover-'));
        const port = String(await freePort());
        base = `http://127.0.0.1:${port}`;
        restart = () => fleet.spawn({ ...mail, DATA_DIR: dataDir, PORT: port });
        workers = [await restart()];
      }
      const project = await createProject(base);
      const auth = `Bearer ${project.secretKey}`;
      const csv = ['email', ...Array.from({ length: RECIPIENTS }, (_, i) => `r${i}@takeover.example`)].join('\n');
      const upload = await request(base).post('/contacts/import').set('Authorization', auth).attach('file', Buffer.from(csv), { filename: 'r.csv', contentType: 'text/csv' }).expect(202);
      await waitFor(async () => {
        const job = (await request(base).get(`/contacts/import/${upload.body.jobId as string}`).set('Authorization', auth).expect(200)).body;
        return job.status === 'completed' ? true : undefined;
      }, 120_000, 200);
      const created = await request(base)
        .post('/campaigns')
        .set('Authorization', auth)
        .send({ name: 'Takeover', subject: 'Hi {{email}}', body: '<p>Hello {{email}}</p>', from: 'news@example.com', audienceType: 'ALL', type: 'MARKETING' })
        .expect(201);
      await request(base).post(`/campaigns/${created.body.data.id as string}/send`).set('Authorization', auth).expect(200);

      // Every worker killed while the campaign flows, then one started again at once.
      await waitFor(async () => (smtp.count >= 50 ? true : undefined), 120_000, 20);
      await Promise.all(workers.map(kill));
      const killedAt = Date.now();
      const before = smtp.count;
      expect(before).toBeLessThan(RECIPIENTS);
      await restart();
      const startedAt = Date.now();
      await waitFor(async () => (smtp.count > before ? true : undefined), 120_000, 20);
      const resumedMs = Date.now() - startedAt;
      process.stdout.write(
        `worker-takeover (${TEST_MODE}): ${before} of ${RECIPIENTS} sent at the kill; restarted ${startedAt - killedAt} ms after it; the first email after the restart ${resumedMs} ms after the worker listened\n`,
      );
      expect(resumedMs).toBeLessThan(TAKEOVER_BOUND_MS);
    } finally {
      await smtp.close();
    }
  });
});
