import type { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import request from 'supertest';
import { createProject, createServicesDatabase, startTestApp, TEST_MODE, waitFor } from '../support/app';
import { freePort, modeEnv, spawnReady, type SpawnedService } from '../support/service-process';
import { apiClient, type ApiReads, apiReads, importContacts } from '../support/session';
import { SmtpReceiver } from '../support/smtp-receiver';

/**
 * startPerDay 20 at 50 %: day 0 allows 20, day 1 30, day 2 45. Services mode: 60 contacts over
 * three days, two kills; embedded mode (each restart reopens the embedded database, the slow part):
 * 50 contacts over two days, one kill.
 */
const SENT_PER_DAY = TEST_MODE === 'services' ? [20, 30, 10] : [20, 30];
const CAP_OF_DAY = [20, 30, 45];
const RECIPIENTS = SENT_PER_DAY.reduce((a, b) => a + b, 0);

/**
 * Warm-up under crashes (docs/delivery-control.md, "Domain warm-up"): a campaign from a warming
 * domain, the process that sends it SIGKILLed at each day's cap and restarted once the UTC day
 * has turned (moved by SQL while it is down). Services mode runs the compose topology (a ROLE=api
 * and a ROLE=worker process; the worker is killed); embedded mode, whose database lives in one
 * process, kills that process. Every contact gets exactly one message: none over a day's cap,
 * none twice, none missing.
 */
// Not on the session fixture: it spawns service processes and kills them with SIGKILL.
describe('warm-up crash safety', () => {
  jest.setTimeout(300_000);

  it('sends each contact exactly one email across kills at the day caps', async () => {
    const smtp = await SmtpReceiver.start();
    // A killed sender resets its SMTP connections; the receiver's server reports each as an 'error' event.
    (smtp as unknown as { server: EventEmitter }).server.on('error', () => undefined);
    const database = TEST_MODE === 'services' ? await createServicesDatabase() : null;
    const dirs = [mkdtempSync(join(tmpdir(), 'mailroom-warmup-')), mkdtempSync(join(tmpdir(), 'mailroom-warmup-'))];
    const [apiPort, workerPort] = [await freePort(), await freePort()];
    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      APP_SECRET: randomBytes(32).toString('hex'),
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: smtp.url,
      DOMAIN_VERIFICATION: 'off',
      RATE_LIMIT_PER_MINUTE: '100000',
      SEND_LEASE_SECONDS: '30',
      EMAIL_STRANDED_AFTER_MS: '5000',
      EMAIL_SWEEP_INTERVAL_MS: '1000',
      ...modeEnv(database),
    };
    const base = `http://127.0.0.1:${apiPort}`;
    // Embedded: one process does everything. Services: the API stays up, the worker is the one killed.
    const api = database ? await spawnReady({ ...env, ROLE: 'api', PORT: String(apiPort), DATA_DIR: dirs[0] }, base) : null;
    const startSender = () =>
      database
        ? spawnReady({ ...env, ROLE: 'worker', PORT: String(workerPort), DATA_DIR: dirs[1] }, `http://127.0.0.1:${workerPort}`)
        : spawnReady({ ...env, PORT: String(apiPort), DATA_DIR: dirs[0] }, base);
    let sender: SpawnedService = await startSender();
    // The campaign's messages (the sign-up's account mail goes to the same receiver).
    const received = () => smtp.messages.filter((m) => m.envelope.to.some((to) => to.endsWith('@crash.example')));

    type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;
    /**
     * With the sender down, the API's reads (`read`, for the project whose key is `auth`) and SQL
     * against the database (`query`): the API process and the database directly (services), or an
     * API process on the embedded files.
     */
    const whileDown = async (auth: Record<string, string>, run: (read: ApiReads, query: Query) => Promise<void>): Promise<void> => {
      if (database) {
        const client = new Client({ connectionString: database.url });
        await client.connect();
        try {
          // The time travel in SQL (below) runs here, on the database itself.
          return await run(apiReads(apiClient(base, auth)), async (sql, params = []) => (await client.query(sql, params)).rows);
        } finally {
          await client.end();
        }
      }
      const inspect = await startTestApp({ ...env, PORT: '0', ROLE: 'api' }, { persistent: true, dataDir: dirs[0] });
      try {
        const dataSource = inspect.runtime.app.get(DataSource);
        // The time travel in SQL (below) runs here, through the embedded files' API process.
        await run(apiReads(apiClient(inspect.http, auth)), (sql, params = []) => dataSource.query(sql, params));
      } finally {
        await inspect.close();
      }
    };

    try {
      const project = await createProject(base);
      const auth = { Authorization: `Bearer ${project.secretKey}` };
      const domain = (await request(base).post('/domains').set(auth).send({ domain: 'warm.example' }).expect(201)).body;
      await request(base).patch(`/domains/${domain.id}`).set(auth).send({ warmup: { enabled: true, startPerDay: 20, growthPercent: 50 } }).expect(200);
      const csv = ['email', ...Array.from({ length: RECIPIENTS }, (_, i) => `r${i}@crash.example`)].join('\n');
      await importContacts(base, auth, csv, 60_000);
      const campaign = (
        await request(base).post('/campaigns').set(auth).send({ name: 'Warm crash', subject: 'Hi', body: '<p>Hello {{email}}</p>', from: 'news@warm.example', audienceType: 'ALL', type: 'MARKETING' }).expect(201)
      ).body.data;
      await request(base).post(`/campaigns/${campaign.id as string}/send`).set(auth).expect(200);
      const campaignStatus = async (id: string) => (await request(base).get(`/campaigns/${id}`).set(auth).expect(200)).body.status as string;
      let markers = 0;
      /** A one-contact campaign from an unwarmed domain, sent now: once it is SENT, the engine has been past the held one since. */
      const engineMovedOn = async () => {
        const to = `marker${++markers}@marker.example`;
        await request(base).post('/contacts').set(auth).send({ email: to }).expect(201);
        const marker = (
          await request(base)
            .post('/campaigns')
            .set(auth)
            .send({
              name: `Marker ${markers}`,
              subject: 'Marker',
              body: '<p>Marker</p>',
              from: 'news@cold.example',
              type: 'MARKETING',
              audienceType: 'FILTERED',
              audienceCondition: { logic: 'AND', groups: [{ filters: [{ field: 'email', operator: 'contains', value: to }] }] },
            })
            .expect(201)
        ).body.data;
        await request(base).post(`/campaigns/${marker.id as string}/send`).set(auth).expect(200);
        await waitFor(async () => ((await campaignStatus(marker.id)) === 'SENT' ? true : undefined), 60_000, 100);
      };

      let expected = 0;
      for (const [day, cap] of SENT_PER_DAY.entries()) {
        expected += cap;
        await waitFor(async () => (received().length >= expected ? true : undefined), 60_000, 20);
        if (day === SENT_PER_DAY.length - 1) break;
        // At the cap: nothing more leaves while the day lasts, then the sender dies.
        await engineMovedOn();
        expect(received().length).toBe(expected);
        sender.child.kill('SIGKILL');
        await sender.exited;
        // The campaign's emails are the day's cap exactly (written set-based, counted in the same transaction).
        await whileDown(auth, async (read, query) => {
          expect(await read.emailCount({ campaignId: campaign.id })).toBe(expected);
          // The next UTC day: the warm-up's start and the day's counters move one day back.
          // Time travel in SQL: no endpoint moves the UTC day.
          await query(`UPDATE domains SET warmup_started_at = warmup_started_at - interval '1 day' WHERE id = $1`, [domain.id]);
          // Time travel in SQL, as above.
          await query(`UPDATE domain_send_counts SET day = day - 1 WHERE domain_id = $1`, [domain.id]);
        });
        sender = await startSender();
      }
      const final = await waitFor(async () => {
        const c = (await request(base).get(`/campaigns/${campaign.id as string}`).set(auth).expect(200)).body;
        return c.status === 'SENT' ? c : undefined;
      }, 60_000, 200);
      const shown = (await request(base).get(`/domains/${domain.id as string}`).set(auth).expect(200)).body.warmup;

      const perRecipient = new Map<string, number>();
      for (const m of received()) for (const to of m.envelope.to) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
      const duplicates = [...perRecipient.values()].filter((n) => n > 1).length;
      const missing = Array.from({ length: RECIPIENTS }, (_, i) => `r${i}@crash.example`).filter((to) => !perRecipient.has(to)).length;
      process.stdout.write(`warmup-crash (${TEST_MODE}): received ${received().length}, duplicates ${duplicates}, missing ${missing}\n`);
      expect(duplicates).toBe(0);
      expect(missing).toBe(0);
      expect(received()).toHaveLength(RECIPIENTS);
      expect(final).toMatchObject({ status: 'SENT', totalRecipients: RECIPIENTS, sentCount: RECIPIENTS });
      const lastDay = SENT_PER_DAY.length - 1;
      expect(shown).toMatchObject({ day: lastDay, capToday: CAP_OF_DAY[lastDay], sentToday: SENT_PER_DAY[lastDay] });
    } finally {
      for (const p of [sender, api]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
      await Promise.all([sender.exited, api?.exited]);
      await smtp.close();
      await database?.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
