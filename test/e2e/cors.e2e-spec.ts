import request from 'supertest';
import type { Response } from 'supertest';
import { useSession } from '../support/session';

const OWN = 'http://mailroom.test';
const FOREIGN = 'http://shop.example';
const PUBLIC_API = ['/v1/track', '/v1/send', '/v1/verify'];
const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

/** Every `Access-Control-*` header of a response. */
const corsHeaders = (res: Response): Record<string, string> =>
  Object.fromEntries(Object.entries(res.headers as Record<string, string>).filter(([name]) => name.startsWith('access-control-')));

const listed = (value: string | undefined): string[] => (value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

/**
 * The public API (`/v1/track` for browsers with the public key, `/v1/send` and `/v1/verify` for
 * tools running in browsers) answers preflights and carries `Access-Control-Allow-Origin: *` on
 * every answer, errors included. It is never authenticated by the session cookie from another
 * origin; every other route stays closed to other origins (no `Access-Control-*` header at all).
 * Requests set their headers one by one: the headers are what is under test.
 */
describe('CORS', () => {
  const s = useSession({ PUBLIC_URL: OWN, RATE_LIMIT_PER_MINUTE: '4' });

  it.each(PUBLIC_API)('answers the preflight of %s with 204 and the allowed methods and headers', async (path) => {
    const res = await request(s.http)
      .options(path)
      .set('Origin', FOREIGN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(listed(res.headers['access-control-allow-methods'])).toEqual(expect.arrayContaining(['post', 'options']));
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, Idempotency-Key');
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    expect(listed(res.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'x-request-id']),
    );
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.text).toBe('');
  });

  it('tracks with the public key from another origin, the origin header and exposed headers on the answer', async () => {
    const p = await s.newProject();
    const res = await request(s.http)
      .post('/v1/track')
      .set('Origin', FOREIGN)
      .set('Authorization', `Bearer ${p.keys.public}`)
      .send({ event: 'page-viewed', email: 'visitor@example.com' })
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(listed(res.headers['access-control-expose-headers'])).toEqual(expect.arrayContaining(['ratelimit-remaining', 'x-request-id']));
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const events = await p.read.events({ name: 'page-viewed' });
    expect(events.map((e) => e.contact?.email)).toEqual(['visitor@example.com']);
  });

  it('puts the origin header on errors of the public API: 401, 422, 400, 413', async () => {
    const p = await s.newProject();
    const post = (path: string) => request(s.http).post(path).set('Origin', FOREIGN);
    const answers = [
      await post('/v1/track').send({ event: 'x', email: 'a@example.com' }).expect(401),
      await post('/v1/send').set('Authorization', `Bearer ${p.keys.public}`).send({ to: 'a@example.com', subject: 's', body: 'b' }).expect(401),
      await post('/v1/verify').set('Authorization', `Bearer ${p.keys.secret}`).send({ email: 42 }).expect(422),
      await post('/v1/track').set('Authorization', `Bearer ${p.keys.public}`).set('Content-Type', 'application/json').send('{"event":').expect(400),
      await post('/v1/track')
        .set('Authorization', `Bearer ${p.keys.public}`)
        .send({ event: 'big', email: 'a@example.com', data: { blob: 'x'.repeat(1_100_000) } })
        .expect(413),
    ];
    for (const res of answers) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body.success).toBe(false);
    }
  });

  it('puts the origin header on the 429 of the rate limit', async () => {
    const p = await s.newProject();
    const track = () =>
      request(s.http).post('/v1/track').set('Origin', FOREIGN).set('Authorization', `Bearer ${p.keys.public}`).send({ event: 'tick', email: 'r@example.com' });
    for (let i = 0; i < 4; i += 1) await track().expect(200);
    const limited = await track().expect(429);
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    expect(limited.headers['retry-after']).toBeTruthy();
  });

  it('never authenticates the public API by the session cookie from another origin', async () => {
    const p = await s.newProject();
    const cookieTrack = (origin: string | undefined, email: string, path = '/v1/track') => {
      const req = request(s.http).post(path).set('Cookie', p.project.cookie).set('X-Project-Id', p.project.id).set(XHR);
      return (origin ? req.set('Origin', origin) : req).send({ event: 'cookie-track', email });
    };
    // Spelled however the router still matches it.
    for (const path of ['/v1/track', '/V1/Track', '/v1/track/']) {
      const foreign = await cookieTrack(FOREIGN, 'foreign@example.com', path).expect(401);
      expect(foreign.body.error.code).toBe('INVALID_API_KEY');
      expect(foreign.headers['access-control-allow-origin']).toBe('*');
    }
    await request(s.http)
      .post('/v1/send')
      .set('Cookie', p.project.cookie)
      .set('X-Project-Id', p.project.id)
      .set(XHR)
      .set('Origin', FOREIGN)
      .send({ to: 'a@example.com', subject: 's', body: 'b' })
      .expect(401);
    // The dashboard itself (its own origin) keeps using its session there.
    await cookieTrack(OWN, 'own@example.com').expect(200);
    await cookieTrack(undefined, 'no-origin@example.com').expect(200);
    const emails = (await p.read.events({ name: 'cookie-track' })).map((e) => e.contact?.email).sort();
    expect(emails).toEqual(['no-origin@example.com', 'own@example.com']);
  });

  it('sends no Access-Control header anywhere else, preflight or not', async () => {
    const p = await s.newProject();
    const preflight = (path: string) =>
      request(s.http)
        .options(path)
        .set('Origin', FOREIGN)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');
    for (const path of ['/contacts', '/events/track', '/auth/login', '/users/@me', '/v1/ping', '/v1/track/extra', '/v1/trackx']) {
      const res = await preflight(path);
      expect({ path, cors: corsHeaders(res) }).toEqual({ path, cors: {} });
      expect(res.status).not.toBe(204);
    }
    const answers = [
      await request(s.http).get('/contacts').set('Origin', FOREIGN).set('Authorization', `Bearer ${p.keys.secret}`).expect(200),
      await request(s.http).get('/users/@me').set('Origin', FOREIGN).set('Cookie', p.project.cookie).expect(200),
      await request(s.http).get('/contacts').set('Origin', FOREIGN).set('Cookie', p.project.cookie).set('X-Project-Id', p.project.id).expect(200),
      await request(s.http)
        .post('/events/track')
        .set('Origin', FOREIGN)
        .set('Authorization', `Bearer ${p.keys.secret}`)
        .send({ event: 'alias', email: 'alias@example.com' })
        .expect(200),
      await request(s.http).post('/auth/login').set('Origin', FOREIGN).send({ email: p.project.email, password: 'wrong password' }).expect(401),
    ];
    for (const res of answers) expect(corsHeaders(res)).toEqual({});
  });
});
