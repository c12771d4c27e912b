import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createProject, createServicesDatabase, pause, startTestApp, TEST_MODE, waitFor } from '../support/app';
import { freePort, modeEnv, spawnReady } from '../support/service-process';
import { apiClient, apiReads, bearer, useSession } from '../support/session';

/**
 * Idempotency-Key on `/v1/send` (docs/api.md, "Idempotency"): the key is claimed in the
 * transaction that writes the emails, so a 409 always means the first request's emails exist,
 * and its details carry the first answer.
 */
describe('Idempotency-Key on /v1/send', () => {
  const s = useSession({ DOMAIN_VERIFICATION: 'off' });
  const send = (key: string, to: string) =>
    s.api.post('/v1/send').set('Idempotency-Key', key).send({ to, from: 'hello@acme.test', subject: 'Once', body: '<p>b</p>' });

  it('answers a repeat with 409 carrying the first answer (the email ids)', async () => {
    const first = await send('send-answer', 'answer@example.org').expect(200);
    const repeat = await send('send-answer', 'answer@example.org').expect(409);
    expect(repeat.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(repeat.body.error.details).toMatchObject({ key: 'send-answer', originalRequest: 'POST /v1/send', originalStatusCode: 200, originalResponse: first.body });
  });

  it('lets concurrent repeats perform once, each 409 naming the email that exists', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => send('send-concurrent', 'concurrent@example.org')));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 409);
    expect([ok.length, refused.length]).toEqual([1, 5]);
    for (const r of refused) expect(r.body.error.details).toMatchObject({ originalStatusCode: 200, originalResponse: ok[0].body });
  });

  it('leaves the key free when the request fails inside its transaction (over the billing limit)', async () => {
    const limits = `/users/@me/projects/${s.project.id}/billing-limits`;
    const used = (await s.dashboard.get(`/users/@me/projects/${s.project.id}/billing-consumption`).expect(200)).body.transactional as number;
    await s.dashboard.put(limits, { transactional: used + 1 }).expect(200);
    const over = await s.api
      .post('/v1/send')
      .set('Idempotency-Key', 'send-over-limit')
      .send({ to: ['limit-1@example.org', 'limit-2@example.org'], from: 'hello@acme.test', subject: 'S', body: 'b' })
      .expect(402);
    expect(over.body.error.code).toBe('BILLING_LIMIT_EXCEEDED');
    await s.dashboard.put(limits, { transactional: null }).expect(200);
    const retry = await s.api
      .post('/v1/send')
      .set('Idempotency-Key', 'send-over-limit')
      .send({ to: ['limit-1@example.org', 'limit-2@example.org'], from: 'hello@acme.test', subject: 'S', body: 'b' })
      .expect(200);
    expect(retry.body.data.emails).toHaveLength(2);
  });
});

/**
 * The outside fault run's reproduction: SIGKILL of the process while keyed `/v1/send` requests
 * are in flight, then the client retries every unanswered request with the same key. Each key
 * must end with exactly one email, and a 409 must name an email that exists: before the claim
 * moved into the write transaction, a retry could meet a key claimed by a request that died
 * before writing (409, no email: lost).
 */
describe('Idempotency-Key across a SIGKILL', () => {
  jest.setTimeout(600_000);
  const REQUESTS = 240;

  it('never answers 409 for a request whose email does not exist, and never sends twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-idem-crash-'));
    const database = TEST_MODE === 'services' ? await createServicesDatabase() : null;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      APP_SECRET: randomBytes(32).toString('hex'),
      DOMAIN_VERIFICATION: 'off',
      RATE_LIMIT_PER_MINUTE: '100000',
      // The api process of the production topology: requests only, no sending (rows are what count).
      ...(database ? { ROLE: 'api', ...modeEnv(database) } : {}),
    };
    const start = () => spawnReady(env, base);
    let service = await start();
    try {
      const project = await createProject(base);
      const post = (i: number) =>
        request(base)
          .post('/v1/send')
          .set('Authorization', `Bearer ${project.secretKey}`)
          .set('Idempotency-Key', `crash-${i}`)
          .send({ to: `r${i}@crash.example`, from: 'hello@acme.test', subject: `Crash ${i}`, body: '<p>b</p>' })
          .then(
            (r) => ({ status: r.status, body: r.body as Record<string, unknown> }),
            () => ({ status: 0, body: {} }),
          );

      // All at once, in waves so that some are answered and some are mid-write when the kill comes.
      const answers = new Map<number, { status: number; body: Record<string, unknown> }>();
      let answered = 0;
      const inFlight = Array.from({ length: REQUESTS }, (_, i) =>
        post(i).then((r) => {
          answers.set(i, r);
          if (r.status !== 0) answered++;
        }),
      );
      await waitFor(async () => (answered >= REQUESTS / 6 ? true : undefined), 120_000, 5);
      service.child.kill('SIGKILL');
      await service.exited;
      await Promise.all(inFlight);
      const unanswered = [...answers.entries()].filter(([, r]) => r.status === 0).map(([i]) => i);
      service = await start();

      // The client's retry: every unanswered request again with its key, and a repeat of some answered ones.
      const retries = new Map<number, { status: number; body: Record<string, unknown> }>();
      // A client retries a request that got no answer (a reset connection) until it gets one.
      const retry = async (i: number) => {
        for (let attempt = 0; ; attempt++) {
          const r = await post(i);
          if (r.status !== 0 || attempt === 20) return r;
          await pause(250, "the client's back-off before it retries");
        }
      };
      for (const i of [...unanswered, 0, 1, 2]) retries.set(i, await retry(i));
      service.child.kill('SIGTERM');
      await service.exited;

      const inspect = await startTestApp({ ...env, PORT: '0', ROLE: 'api' }, { persistent: true, dataDir });
      try {
        // The crash proof counts stored emails per recipient (no lost or duplicate one), read at rest through an API process.
        const rows = await apiReads(apiClient(inspect.http, bearer(project.secretKey))).emails();
        const perRecipient = new Map<string, string[]>();
        for (const r of rows) perRecipient.set(r.to, [...(perRecipient.get(r.to) ?? []), r.id]);
        const lost: number[] = [];
        const duplicated: number[] = [];
        const wrong409: number[] = [];
        for (let i = 0; i < REQUESTS; i++) {
          const ids = perRecipient.get(`r${i}@crash.example`) ?? [];
          if (ids.length === 0) lost.push(i);
          if (ids.length > 1) duplicated.push(i);
          const retry = retries.get(i);
          if (retry?.status === 409) {
            const original = (retry.body.error as { details: { originalResponse: { data: { emails: Array<{ email: string }> } } | null } }).details.originalResponse;
            if (original?.data.emails[0]?.email !== ids[0]) wrong409.push(i);
          }
        }
        process.stdout.write(
          `idempotency-crash (${TEST_MODE}): ${REQUESTS} requests, ${unanswered.length} unanswered at the kill, ` +
            `retries: ${[...retries.values()].filter((r) => r.status === 200).length} × 200, ${[...retries.values()].filter((r) => r.status === 409).length} × 409; ` +
            `lost ${lost.length}, duplicated ${duplicated.length}, 409 without its email ${wrong409.length}\n`,
        );
        expect(unanswered.length).toBeGreaterThan(0);
        expect([...retries.values()].every((r) => r.status === 200 || r.status === 409)).toBe(true);
        expect([...[0, 1, 2].map((i) => retries.get(i)!.status)]).toEqual([409, 409, 409]);
        expect({ lost, duplicated, wrong409 }).toEqual({ lost: [], duplicated: [], wrong409: [] });
      } finally {
        await inspect.close();
      }
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
