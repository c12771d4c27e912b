import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { useSession } from '../support/session';

/**
 * Plunk's SDK (and many hand-written clients) read a top-level `message` from an error answer;
 * the envelope carries it beside `error` (same text as `error.message`), the rest unchanged.
 */
describe('error envelope', () => {
  const s = useSession({ RATE_LIMIT_PER_MINUTE: '3' });
  const base = () => `http://127.0.0.1:${((s.http as unknown as Server).address() as AddressInfo).port}`;

  /** A client written the way Plunk's SDK is: the error text is `body.message`. */
  async function plunkStyle(path: string, key: string | undefined, body: string | object): Promise<unknown> {
    const res = await fetch(`${base()}${path}`, {
      method: 'POST',
      headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const json = (await res.json()) as { message?: string };
    if (!res.ok) throw new Error(json.message ?? 'Unknown API Error');
    return json;
  }

  it('shows the error text to a client that reads body.message', async () => {
    await expect(plunkStyle('/v1/send', 'sk_' + '0'.repeat(64), { to: 'a@example.com', subject: 's', body: 'b' })).rejects.toThrow('Invalid API key');
    await expect(plunkStyle('/v1/send', s.keys.public, { to: 'a@example.com', subject: 's', body: 'b' })).rejects.toThrow(/needs the secret key/);
    await expect(plunkStyle('/v1/track', s.keys.public, { event: 'signed-up' })).rejects.toThrow('Request validation failed');
    await expect(plunkStyle('/v1/track', s.keys.public, '{"event":')).rejects.toThrow('Malformed JSON body');
    await expect(plunkStyle('/v1/nothing-here', s.keys.secret, {})).rejects.toThrow('Not found');
  });

  it('has message at the top level, the same text as error.message, the envelope otherwise as before', async () => {
    const p = await s.newProject();
    const answers = [
      await p.api.post('/v1/send', { to: 'not-an-email', subject: 's', body: 'b' }).expect(422),
      await request(s.http).get('/contacts').expect(401),
      await p.dashboard.get('/contacts/00000000-0000-4000-8000-000000000000').set('X-Project-Id', p.project.id).expect(404),
      await request(s.http).post('/contacts').set('Cookie', p.project.cookie).set('X-Project-Id', p.project.id).send({ email: 'x@example.com' }).expect(403),
      await p.api.post('/v1/track', { event: 'e', email: 'big@example.com', data: { blob: 'x'.repeat(1_100_000) } }).expect(413),
    ];
    for (const res of answers) {
      expect(Object.keys(res.body).sort()).toEqual(['error', 'message', 'success', 'timestamp']);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.message).toBe('string');
      expect(res.body.message.length).toBeGreaterThan(0);
      expect(res.body.message).toBe(res.body.error.message);
      expect(res.body.error).toMatchObject({ code: expect.any(String), message: res.body.message, statusCode: res.status, requestId: res.headers['x-request-id'] });
    }
    expect(answers[0].body.error.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.stringMatching(/^to/) })]));
  });

  it('carries message on the rate limit 429 too', async () => {
    const p = await s.newProject();
    for (let i = 0; i < 3; i += 1) await p.api.get('/v1/ping').expect(200);
    const limited = await p.api.get('/v1/ping').expect(429);
    expect(limited.body.message).toBe(limited.body.error.message);
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('documents the top-level message in the OpenAPI error envelope', async () => {
    const doc = await request(s.http).get('/docs/openapi.json').expect(200);
    const envelope = doc.body.components.schemas.ErrorEnvelope;
    expect(envelope.required).toEqual(expect.arrayContaining(['success', 'message', 'error', 'timestamp']));
    expect(envelope.properties.message).toMatchObject({ type: 'string' });
  });

  it('keeps the short { error } body where the spec names it', async () => {
    const res = await s.api.post('/templates', { name: 'T', subject: 's', body: 'b' }).expect(400);
    expect(res.body).toEqual({ error: 'from is required' });
  });
});
