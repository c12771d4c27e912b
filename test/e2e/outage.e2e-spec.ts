import request from 'supertest';
import { createProject, pause, TEST_MODE, waitFor } from '../support/app';
import { startProxiedTopology } from '../support/proxied-topology';
import { apiClient, apiReads, bearer, importContacts } from '../support/session';

const RECIPIENTS = 300;
const OUTAGE_MS = 12_000;

/**
 * A PostgreSQL outage (and, with Redis, a Redis outage) in the production topology: a ROLE=api
 * and a ROLE=worker process reach the machine's PostgreSQL (and Redis) through a loopback proxy
 * the test cuts. While it is cut, API requests answer 503 SERVICE_UNAVAILABLE with Retry-After
 * (never 500), a request is written whole or not at all, and a campaign sending to a real SMTP
 * receiver loses nothing: an email handed over during the outage is recorded `sent` once the
 * database is back (never `failed`, never sent twice). The embedded test mode runs it with the
 * queues in PostgreSQL, the services mode with them in Redis.
 */
describe('outage of PostgreSQL and Redis', () => {
  jest.setTimeout(600_000);

  it('answers 503 with Retry-After during the outage, writes nothing by halves, and loses no campaign email', async () => {
    const { smtp, pg, redis, base, stop } = await startProxiedTopology('outage', { SEND_RATE_PER_SECOND: '30' });
    try {
      const project = await createProject(base);
      const api = (method: 'get' | 'post', path: string) => request(base)[method](path).set('Authorization', `Bearer ${project.secretKey}`);
      const csv = ['email', ...Array.from({ length: RECIPIENTS }, (_, i) => `r${i}@outage.example`)].join('\n');
      await importContacts(base, bearer(project.secretKey), csv);
      const created = await api('post', '/campaigns')
        .send({ name: 'Outage', subject: 'Outage {{email}}', body: '<p>Hello {{email}}</p>', from: 'news@example.com', audienceType: 'ALL', type: 'MARKETING' })
        .expect(201);
      const campaignId: string = created.body.data.id;
      await api('post', `/campaigns/${campaignId}/send`).expect(200);
      await smtp.waitForCount(RECIPIENTS / 5, 120_000);

      // Keyed sends racing the cut: each is written whole or not at all.
      const racing = Array.from({ length: 40 }, (_, i) =>
        api('post', '/v1/send')
          .set('Idempotency-Key', `race-${i}`)
          .send({ to: [`race${i}a@example.org`, `race${i}b@example.org`], from: 'hello@acme.test', subject: 'Race', body: 'b' })
          .then(
            (r) => r.status,
            () => 0,
          ),
      );
      await pause(20, 'the cut lands while these sends are in flight, at no particular step');
      await pg.cut();
      await redis?.cut();
      const cutAt = Date.now();
      const statuses = await Promise.all(racing);

      // During the outage: 503 + Retry-After for key-authenticated reads and writes, readiness 503, liveness 200.
      for (const [method, path, body] of [
        ['get', '/contacts', undefined],
        ['post', '/v1/track', { email: 'during@example.org', event: 'outage' }],
        ['post', '/v1/send', { to: 'during@example.org', from: 'hello@acme.test', subject: 'S', body: 'b' }],
      ] as const) {
        const res = await api(method, path).send(body as object | undefined);
        expect([path, res.status, res.body.error?.code, res.headers['retry-after']]).toEqual([path, 503, 'SERVICE_UNAVAILABLE', '5']);
      }
      expect((await request(base).get('/health/ready')).status).toBe(503);
      expect((await request(base).get('/health')).status).toBe(200);
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);

      await pause(OUTAGE_MS - (Date.now() - cutAt), 'the outage lasts OUTAGE_MS whatever happens in it');
      await redis?.restore();
      await pg.restore();
      await waitFor(async () => ((await api('get', '/contacts').then((r) => r.status)) === 200 ? true : undefined), 60_000, 250);

      const final = await waitFor(
        async () => {
          const c = (await api('get', `/campaigns/${campaignId}`)).body;
          return c.status === 'SENT' ? c : undefined;
        },
        300_000,
        1_000,
      );
      // What is missing then shows in the counts below.
      await smtp.waitForCount(RECIPIENTS, 60_000).catch(() => undefined);

      // The outage proof reads the emails themselves (no duplicate, no half-written send) once the database is back.
      const read = apiReads(apiClient(base, bearer(project.secretKey)));
      const rows = await read.emails({ campaignId });
      const perRecipient = new Map<string, number>();
      for (const m of smtp.messages) for (const to of m.envelope.to) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
      const received = [...Array(RECIPIENTS).keys()].filter((i) => perRecipient.has(`r${i}@outage.example`)).length;
      const duplicates = [...perRecipient.values()].filter((n) => n > 1).length;
      const byStatus: Record<string, number> = {};
      for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      // Which half of each racing send was written (a partial write).
      const racedSet = new Set((await read.emails()).map((r) => r.to).filter((to) => to.startsWith('race')));
      const halves = statuses.map((_, i) => [racedSet.has(`race${i}a@example.org`), racedSet.has(`race${i}b@example.org`)]).filter(([a, b]) => a !== b).length;
      const answered200Missing = statuses.filter((s, i) => s === 200 && !racedSet.has(`race${i}a@example.org`)).length;
      process.stdout.write(
        `outage (${TEST_MODE}): ${OUTAGE_MS} ms; campaign rows ${JSON.stringify(byStatus)}, received ${received}/${RECIPIENTS}, duplicates ${duplicates}; ` +
          `racing sends ${statuses.filter((s) => s === 200).length} × 200, ${statuses.filter((s) => s === 503).length} × 503, half-written ${halves}\n`,
      );
      expect(final).toMatchObject({ status: 'SENT' });
      expect({ received, duplicates, halves, answered200Missing }).toEqual({ received: RECIPIENTS, duplicates: 0, halves: 0, answered200Missing: 0 });
      expect(byStatus.failed ?? 0).toBe(0);
      expect(byStatus.uncertain ?? 0).toBe(0);
      expect((byStatus.sent ?? 0) + (byStatus.delivered ?? 0)).toBe(RECIPIENTS);
    } finally {
      await stop();
    }
  });
});
