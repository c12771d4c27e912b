import request from 'supertest';
import { createProject, pause, TEST_MODE, type TestProject, waitFor } from '../support/app';
import { type ProxiedTopology, startProxiedTopology } from '../support/proxied-topology';
import { apiClient, apiReads, bearer } from '../support/session';
import type { SmtpReceiver } from '../support/smtp-receiver';

/** The outage answer's bound (docs/operations.md) and what an HTTP round trip on a loaded machine may add. */
const ANSWER_WITHIN_MS = 5_000;
const MARGIN_MS = 1_500;
/** A silent Redis heals: the queues resume within this (docs/operations.md), plus the delivery itself. */
const RESUME_WITHIN_MS = 30_000;
const DELIVERY_MARGIN_MS = 10_000;

/**
 * A dependency that goes silent instead of refusing (a black hole or a partition: connections
 * accepted or held, never answered), in the production topology (a ROLE=api and a ROLE=worker
 * process behind loopback proxies the test stalls). Every probe answers 503 SERVICE_UNAVAILABLE
 * with Retry-After within 5 s, and what it asked for never happens, not even once the dependency
 * answers again; the held connections stay silent after the heal (their state lost, as after a
 * partition), so the service must notice and reopen them: a send after a Redis heal is delivered
 * within 30 s. The embedded test mode (queues in PostgreSQL) runs the PostgreSQL part.
 */
describe('a silent PostgreSQL or Redis', () => {
  jest.setTimeout(600_000);
  let smtp: SmtpReceiver;
  let pg: ProxiedTopology['pg'];
  let redis: ProxiedTopology['redis'];
  let base: string;
  let project: TestProject;
  let topology: ProxiedTopology | undefined;

  beforeAll(async () => {
    // Background statements give up at test scale (the default is 60 s): a worker's pooled connection the stall left dead fails its first statement after the heal.
    topology = await startProxiedTopology('silent', { DATABASE_READ_TIMEOUT_MS: '10000' });
    ({ smtp, pg, redis, base } = topology);
    project = await createProject(base);
    // Warm: a send delivered end to end (connections open, the key cached), so the stall meets them in use.
    await send('warm@silent.example').expect(200);
    await smtp.waitForCount(1, 60_000);
  });

  afterAll(async () => {
    await topology?.stop();
  });

  const api = (method: 'get' | 'post', path: string) => request(base)[method](path).set('Authorization', `Bearer ${project.secretKey}`);
  const send = (to: string) => api('post', '/v1/send').send({ to, from: 'hello@acme.test', subject: 'Silent', body: 'b' });
  /** A send's status, 0 when it got no answer within 10 s (a hung request fails the wait instead of holding it). */
  const sendStatus = (to: string) => send(to).timeout(10_000).then((r) => r.status, () => 0);
  const delivered = (to: string) => smtp.messages.some((m) => m.envelope.to.includes(to));

  /** The probes of the issue, at once: a send, a track, and a dashboard read (session + project header). */
  async function probe(tag: string): Promise<Array<{ path: string; status: number; code: unknown; retryAfter: unknown; ms: number }>> {
    const timed = async (path: string, req: request.Test) => {
      const started = Date.now();
      const res = await req.timeout(ANSWER_WITHIN_MS + 20_000).then(
        (r) => r,
        () => ({ status: 0, body: {}, headers: {} as Record<string, string> }),
      );
      return { path, status: res.status, code: (res.body as { error?: { code?: unknown } }).error?.code, retryAfter: res.headers['retry-after'], ms: Date.now() - started };
    };
    return Promise.all([
      timed('/v1/send', send(`${tag}@silent.example`)),
      timed('/v1/track', api('post', '/v1/track').send({ email: `${tag}@silent.example`, event: `${tag}-event` })),
      timed('dashboard /contacts', request(base).get('/contacts').set('Cookie', project.cookie).set('X-Project-Id', project.id).set('X-Requested-With', 'XMLHttpRequest')),
    ]);
  }

  function expectOutageAnswers(answers: Awaited<ReturnType<typeof probe>>): void {
    for (const a of answers) {
      expect({ path: a.path, status: a.status, code: a.code, retryAfter: a.retryAfter, inTime: a.ms <= ANSWER_WITHIN_MS + MARGIN_MS }).toEqual({
        path: a.path,
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        retryAfter: '5',
        inTime: true,
      });
    }
  }

  /** After the heal: a fresh send delivered and a fresh event recorded, then none of the probes' effects exist. */
  async function expectNothingPerformed(tag: string): Promise<void> {
    const marker = `${tag}-after`;
    await waitFor(async () => ((await sendStatus(`${marker}@silent.example`)) === 200 ? true : undefined), 60_000, 250);
    await api('post', '/v1/track').send({ email: `${marker}@silent.example`, event: `${marker}-event` }).expect(200);
    // With the queues in Redis, the marker's delivery also shows that the send path works end to
    // end again. The PostgreSQL queue backend's own connections that the stall held stay silent
    // (BullMQ's pool has no read timeout), so in that mode the marker's event is the sign instead.
    if (redis) await waitFor(async () => (delivered(`${marker}@silent.example`) ? true : undefined), 120_000, 200);
    // Whether the stalled requests wrote anything, as the API shows it once it answers again.
    const read = apiReads(apiClient(base, bearer(project.secretKey)));
    await waitFor(async () => ((await read.events({ name: `${marker}-event` })).length > 0 ? true : undefined), 60_000, 200);
    expect({
      emails: (await read.emails()).filter((e) => e.to === `${tag}@silent.example`).length,
      events: (await read.events({ name: `${tag}-event` })).length,
      received: delivered(`${tag}@silent.example`),
    }).toEqual({ emails: 0, events: 0, received: false });
  }

  it('PostgreSQL silent: every probe answers 503 within 5 s, and none of them is performed after the heal', async () => {
    pg.stall();
    const answers = await probe('pg-stalled');
    process.stdout.write(`silent PostgreSQL (${TEST_MODE}): ${JSON.stringify(answers)}\n`);
    expect((await request(base).get('/health')).status).toBe(200);
    await pg.restore();
    expectOutageAnswers(answers);
    await expectNothingPerformed('pg-stalled');
  });

  (TEST_MODE === 'services' ? it : it.skip)('Redis silent: every probe answers 503 within 5 s, none is performed, and a send after the heal is delivered within 30 s', async () => {
    redis!.stall();
    const answers = await probe('redis-stalled');
    await pause(12_000, 'a span of silence, long enough for every queue connection to be waiting on it');
    process.stdout.write(`silent Redis (${TEST_MODE}): ${JSON.stringify(answers)}\n`);
    await redis!.restore();
    const healedAt = Date.now();
    const to = 'after-redis-heal@silent.example';
    await waitFor(async () => ((await sendStatus(to)) === 200 ? true : undefined), RESUME_WITHIN_MS, 250);
    await waitFor(async () => (delivered(to) ? true : undefined), RESUME_WITHIN_MS + DELIVERY_MARGIN_MS - (Date.now() - healedAt), 200);
    process.stdout.write(`silent Redis (${TEST_MODE}): delivered ${Date.now() - healedAt} ms after the heal\n`);
    expectOutageAnswers(answers);
    await waitFor(async () => ((await request(base).get('/health/ready').timeout(10_000).then((r) => r.status, () => 0)) === 200 ? true : undefined), RESUME_WITHIN_MS, 500);
    await expectNothingPerformed('redis-stalled');
  });
});
