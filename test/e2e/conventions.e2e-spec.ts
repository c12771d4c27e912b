import request from 'supertest';
import { DataSource } from 'typeorm';
import { IdempotencyService } from '../../src/platform/http/idempotency/idempotency.service';
import { CounterStore } from '../../src/platform/http/rate-limit/counter-store';
import { PostgresCounterStore } from '../../src/platform/http/rate-limit/postgres-counter.store';
import { createProject, startTestApp, TEST_MODE, TestApp, TestProject, waitFor } from '../support/app';
import { useSession } from '../support/session';

describe('conventions: rate limit', () => {
  let app: TestApp;
  let project: TestProject;
  let other: TestProject;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    project = await createProject(app.http);
    other = await createProject(app.http);
  });
  afterAll(() => app?.close());

  it('sends RateLimit headers and answers 429 with Retry-After over the per-project budget', async () => {
    const auth = `Bearer ${project.secretKey}`;
    for (let i = 1; i <= 5; i++) {
      const res = await request(app.http).get('/v1/ping').set('Authorization', auth).expect(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-remaining']).toBe(String(5 - i));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
    const limited = await request(app.http).get('/v1/ping').set('Authorization', auth).expect(429);
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
  });

  it('counts each project separately, sessions with X-Project-Id included', async () => {
    const res = await request(app.http).get('/v1/ping').set('Cookie', other.cookie).set('X-Project-Id', other.id).expect(200);
    expect(res.body.data.projectId).toBe(other.id);
    expect(res.headers['ratelimit-remaining']).toBe('4');
  });

  it('does not count unauthenticated requests', async () => {
    const res = await request(app.http).get('/v1/ping').expect(401);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('conventions: shared counter stores', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  // The PostgreSQL store (DATABASE_URL without REDIS_URL) and whichever store this mode selected.
  const stores = (): Array<[string, CounterStore]> => [
    ['postgres', new PostgresCounterStore(app.runtime.app.get(DataSource))],
    ['configured', app.runtime.app.get(CounterStore)],
  ];

  it('counts hits per key within a window, restarts after it, and clears', async () => {
    for (const [name, store] of stores()) {
      const key = `test:${name}`;
      expect(await store.peek(key)).toBeNull();
      expect((await store.hit(key, 300)).count).toBe(1);
      const second = await store.hit(key, 300);
      expect(second.count).toBe(2);
      expect(second.resetMs).toBeGreaterThan(0);
      expect(second.resetMs).toBeLessThanOrEqual(300);
      expect((await store.peek(key))?.count).toBe(2);
      await waitFor(async () => ((await store.peek(key)) === null ? true : undefined), 5_000, 25);
      expect((await store.hit(key, 300)).count).toBe(1);
      await store.clear(key);
      expect(await store.peek(key)).toBeNull();
    }
  });

  it('takes windows longer than 24 days (the login pacing keeps a source known for 30 days)', async () => {
    for (const [name, store] of stores()) {
      const hit = await store.hit(`long:${name}`, 30 * 24 * 3600 * 1000);
      expect(hit.count).toBe(1);
      expect(hit.resetMs).toBeGreaterThan(29 * 24 * 3600 * 1000);
    }
  });

  it('counts concurrent hits exactly', async () => {
    for (const [name, store] of stores()) {
      const results = await Promise.all(Array.from({ length: 20 }, () => store.hit(`burst:${name}`, 60_000)));
      expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    }
  });
});

describe('conventions: idempotency key store', () => {
  let app: TestApp;
  let project: TestProject;
  let keys: IdempotencyService;

  beforeAll(async () => {
    app = await startTestApp();
    project = await createProject(app.http);
    keys = app.runtime.app.get(IdempotencyService);
  });
  afterAll(() => app?.close());

  const claim = (key: string, projectId = project.id) => ({ projectId, key, method: 'POST', path: '/v1/send' });
  const db = () => app.runtime.app.get(DataSource);

  it('claims a key in the writing transaction; once committed, a repeat sees the original request and answer', async () => {
    await db().transaction(async (em) => {
      expect(await keys.claimIn(em, [claim('k-1')])).toEqual([true]);
      await keys.recordIn(em, [{ claim: claim('k-1'), statusCode: 200, response: { success: true, data: { emails: ['e-1'] } } }]);
    });
    expect(await keys.find(project.id, 'k-1')).toMatchObject({ method: 'POST', path: '/v1/send', statusCode: 200, response: { success: true, data: { emails: ['e-1'] } } });
    expect(await db().transaction((em) => keys.claimIn(em, [claim('k-1'), claim('k-1b')]))).toEqual([false, true]);
  });

  it('leaves the key free when the claiming transaction rolls back (a failed or killed request)', async () => {
    await expect(
      db().transaction(async (em) => {
        expect(await keys.claimIn(em, [claim('k-2')])).toEqual([true]);
        throw new Error('the request failed before its commit');
      }),
    ).rejects.toThrow('before its commit');
    expect(await keys.find(project.id, 'k-2')).toBeNull();
    expect(await db().transaction((em) => keys.claimIn(em, [claim('k-2')]))).toEqual([true]);
    const other = await createProject(app.http);
    expect(await db().transaction((em) => keys.claimIn(em, [claim('k-2', other.id)]))).toEqual([true]);
  });

  it('makes a concurrent claim wait for the holder: refused if it commits, taken if it rolls back', async () => {
    for (const outcome of ['commit', 'rollback'] as const) {
      const key = `k-race-${outcome}`;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let claimedFirst!: () => void;
      const firstClaimed = new Promise<void>((resolve) => (claimedFirst = resolve));
      const first = db()
        .transaction(async (em) => {
          await keys.claimIn(em, [claim(key)]);
          claimedFirst();
          await held;
          if (outcome === 'rollback') throw new Error('rolled back');
        })
        .catch(() => undefined);
      await firstClaimed;
      const second = db().transaction((em) => keys.claimIn(em, [claim(key)]));
      // The second claim reaches the holder's lock before the release. Embedded, PGlite runs one
      // transaction at a time: its statements queue until the holder ends (the same outcome), and
      // no third statement could look meanwhile.
      if (TEST_MODE === 'services') {
        await waitFor(async () => {
          // Read in SQL: a claim waiting on a lock is the database's own state (no endpoint shows it).
          const waiting = await db().query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO idempotency_keys%'`);
          return waiting.length > 0 || undefined;
        }, 10_000);
      }
      release();
      await first;
      expect([outcome, await second]).toEqual([outcome, [outcome === 'rollback']]);
    }
  });

  it('lets an expired key be claimed again and purges expired keys', async () => {
    await db().transaction((em) => keys.claimIn(em, [claim('k-3')]));
    // Time travel in SQL: no endpoint ages a key.
    await db().query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 minute' WHERE key = 'k-3'`);
    expect(await keys.find(project.id, 'k-3')).toBeNull();
    expect(await db().transaction((em) => keys.claimIn(em, [claim('k-3')]))).toEqual([true]);
    // Time travel in SQL: no endpoint ages a key.
    await db().query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 minute' WHERE key = 'k-3'`);
    expect(await keys.purgeExpired()).toBeGreaterThanOrEqual(1);
  });
});

describe('conventions: Idempotency-Key over HTTP', () => {
  const s = useSession();

  const track = (key: string, body: object = { email: 'idem@example.com', event: 'signup' }) => s.api.post('/v1/track').set('Idempotency-Key', key).send(body);

  it('performs once; a repeat is 409 IDEMPOTENCY_KEY_REUSED with the original request and its answer', async () => {
    const first = await track('same-key').expect(200);
    const repeat = await track('same-key').expect(409);
    expect(repeat.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(repeat.body.error.details).toEqual({
      key: 'same-key',
      originalRequest: 'POST /v1/track',
      originalRequestAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      originalStatusCode: 200,
      originalResponse: first.body,
    });
    expect((await s.read.events({ name: 'signup' })).length).toBe(1);
  });

  it('releases the key after a 4xx outcome', async () => {
    await track('fix-and-retry', { email: 'not-an-email', event: 'signup' }).expect(422);
    await track('fix-and-retry').expect(200);
  });

  it('answers a malformed key with 400', async () => {
    const res = await track('x'.repeat(256)).expect(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    await track('tab\there').expect(400);
  });

  it('concurrent repeats perform once', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => track('concurrent')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });
});

describe('conventions: numeric query parameters on every paged route', () => {
  const s = useSession();
  const HUGE = '99999999999999999999';
  let paged: string[];

  beforeAll(async () => {
    await s.api.post('/contacts', { email: 'paged@example.com', data: { plan: 'pro' } }).expect(201);
    const segment = await s.api.post('/segments', { name: 'Paged', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] } }).expect(201);
    const workflow = await s.api.post('/workflows', { name: 'Paged', eventName: 'paged' }).expect(201);
    paged = ['/templates', '/campaigns', '/workflows', `/workflows/${workflow.body.id}/executions`, `/segments/${segment.body.id}/contacts`];
  });

  it('clamps a limit or pageSize of any length to the maximum (docs/api.md "Input rules")', async () => {
    for (const path of ['/contacts', '/events', '/contacts/fields/data.plan/values', '/activity', '/analytics/top-events']) {
      const res = await s.api.get(path, { limit: HUGE });
      expect([path, res.status, res.body.error?.errors]).toEqual([path, 200, undefined]);
    }
    for (const path of paged) {
      const res = await s.api.get(path, { pageSize: HUGE });
      expect([path, res.status, res.body.pageSize]).toEqual([path, 200, 100]);
    }
    await s.api.get('/activity/recent-count', { minutes: HUGE }).expect(200);
  });

  it('refuses a page past 1,000,000 with a 422 naming page and the maximum', async () => {
    for (const path of paged) {
      const res = await s.api.get(path, { page: HUGE });
      expect([path, res.status]).toEqual([path, 422]);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'page', message: expect.stringContaining('1000000') });
    }
  });
});
