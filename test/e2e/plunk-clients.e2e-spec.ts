import request from 'supertest';
import { ProjectSession, useSession } from '../support/session';

/*
 * What Plunk's clients send (docs/api.md, "Coming from Plunk"): `preserveExistingSubscription`
 * on /v1/track and /v1/send, a recipient's `{name, email}` kept as the contact's `data.name`, the
 * self-hosted base URL `<base>/api/v1/…`, and a Plunk route this API serves without `/v1`.
 */
describe('Plunk clients', () => {
  const s = useSession({ DOMAIN_VERIFICATION: 'off' });
  let p: ProjectSession;
  beforeAll(async () => {
    p = await s.newProject();
  });
  const contact = async (email: string) => (await p.read.contactByEmail(email))!;
  const send = (body: Record<string, unknown>, path = '/v1/send') => p.api.post(path, { from: 'hello@acme.test', subject: 'Hi {{name}}', body: '<p>b</p>', ...body });

  it('with preserveExistingSubscription, /v1/track applies subscribed to a new contact only', async () => {
    await p.api.post('/v1/track', { email: 'kept-sub@example.com', event: 'signup', subscribed: true }).expect(200);
    await p.api.post('/v1/track', { email: 'kept-unsub@example.com', event: 'signup', subscribed: false }).expect(200);
    await p.api.post('/v1/track', { email: 'kept-sub@example.com', event: 'again', subscribed: false, preserveExistingSubscription: true }).expect(200);
    await p.api.post('/v1/track', { email: 'kept-unsub@example.com', event: 'again', subscribed: true, preserveExistingSubscription: true }).expect(200);
    expect((await contact('kept-sub@example.com')).subscribed).toBe(true);
    expect((await contact('kept-unsub@example.com')).subscribed).toBe(false);
    await p.api.post('/v1/track', { email: 'new-unsub@example.com', event: 'signup', subscribed: false, preserveExistingSubscription: true }).expect(200);
    expect((await contact('new-unsub@example.com')).subscribed).toBe(false);
    // Without the flag (or with false), the explicit value applies as before.
    await p.api.post('/v1/track', { email: 'kept-sub@example.com', event: 'later', subscribed: false, preserveExistingSubscription: false }).expect(200);
    expect((await contact('kept-sub@example.com')).subscribed).toBe(false);
  });

  it('with preserveExistingSubscription, /v1/send applies subscribed to a new contact only', async () => {
    await p.api.post('/contacts', { email: 'send-sub@example.com', subscribed: true }).expect(201);
    await p.api.post('/contacts', { email: 'send-unsub@example.com', subscribed: false }).expect(201);
    await send({ to: 'send-sub@example.com', subscribed: false, preserveExistingSubscription: true }).expect(200);
    await send({ to: 'send-unsub@example.com', subscribed: true, preserveExistingSubscription: true }).expect(200);
    await send({ to: 'send-new@example.com', subscribed: true, preserveExistingSubscription: true }).expect(200);
    expect((await contact('send-sub@example.com')).subscribed).toBe(true);
    expect((await contact('send-unsub@example.com')).subscribed).toBe(false);
    expect((await contact('send-new@example.com')).subscribed).toBe(true);
    await send({ to: 'send-sub@example.com', subscribed: false }).expect(200);
    expect((await contact('send-sub@example.com')).subscribed).toBe(false);
  });

  it('stores to.name as data.name when the contact has none, and never overwrites it', async () => {
    await send({ to: { name: 'Ada Lovelace', email: 'named@example.com' } }).expect(200);
    expect((await contact('named@example.com')).data).toMatchObject({ name: 'Ada Lovelace' });
    await send({ to: [{ name: 'Someone Else', email: 'named@example.com' }, { name: 'Bo', email: 'named2@example.com' }] }).expect(200);
    expect((await contact('named@example.com')).data).toMatchObject({ name: 'Ada Lovelace' });
    expect((await contact('named2@example.com')).data).toMatchObject({ name: 'Bo' });
    await p.api.post('/contacts', { email: 'has-name@example.com', data: { name: 'Given' } }).expect(201);
    await send({ to: { name: 'Other', email: 'has-name@example.com' } }).expect(200);
    expect((await contact('has-name@example.com')).data).toMatchObject({ name: 'Given' });
    // An explicit data.name of the send is a data write, as before.
    await send({ to: { name: 'Other', email: 'has-name@example.com' }, data: { name: 'Explicit' } }).expect(200);
    expect((await contact('has-name@example.com')).data).toMatchObject({ name: 'Explicit' });
  });

  it('answers every /v1 route under /api/v1 too, with the same guards, idempotency and 404s, documented once', async () => {
    const tracked = await request(s.http).post('/api/v1/track').set('Authorization', `Bearer ${p.keys.public}`).send({ email: 'api-prefix@example.com', event: 'signup' }).expect(200);
    expect(tracked.body.data.contact).toBe((await contact('api-prefix@example.com')).id);
    // The public key still cannot send; no key is still 401.
    await request(s.http).post('/api/v1/send').set('Authorization', `Bearer ${p.keys.public}`).send({ to: 'x@example.com', subject: 's', body: 'b' }).expect(401);
    await request(s.http).post('/api/v1/send').send({ to: 'x@example.com', subject: 's', body: 'b' }).expect(401);
    const key = `plunk-${Date.now()}`;
    const first = await send({ to: 'idem@example.com' }, '/api/v1/send').set('Idempotency-Key', key).expect(200);
    expect(first.body.success).toBe(true);
    await send({ to: 'idem@example.com' }, '/v1/send').set('Idempotency-Key', key).expect(409);
    await p.api.get('/api/v1/ping').expect(200);
    await p.api.get('/api/v1/emails').expect(200);
    const a = await p.api.post('/api/v1/nothing-here', {}).expect(404);
    const b = await p.api.post('/v1/nothing-here', {}).expect(404);
    expect(a.body.error.code).toBe('NOT_FOUND');
    expect(a.body.message).toBe(b.body.message);
    const doc = (await s.anonymous.get('/docs/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/api/'))).toEqual([]);
    expect(Object.keys(doc.paths)).toContain('/v1/send');
  });

  it('answers a Plunk path that this API serves without /v1 with a 404 naming the route', async () => {
    for (const path of ['/v1/contacts', '/api/v1/contacts']) {
      const res = await p.api.get(path).expect(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', statusCode: 404 } });
      expect(res.body.message).toContain('`/contacts`');
      expect(res.body.error.message).toBe(res.body.message);
    }
    const create = await p.api.post('/v1/contacts', { email: 'x@example.com' }).expect(404);
    expect(create.body.message).toContain('`/contacts`');
    const nested = await p.api.get('/v1/campaigns/abc/stats').expect(404);
    expect(nested.body.message).toContain('`/campaigns');
    // A path that nothing serves stays a plain 404.
    expect((await p.api.get('/v1/nothing-here').expect(404)).body.message).toBe('Not found');
  });
});
