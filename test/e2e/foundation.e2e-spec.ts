import { useSession } from '../support/session';

describe('foundation', () => {
  const s = useSession();

  it('authenticates the secret key on a no-op endpoint', async () => {
    const res = await s.api.get('/v1/ping').expect(200);
    expect(res.body).toEqual({ success: true, data: { projectId: s.project.id } });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('rejects the public key outside /v1/track with INVALID_API_KEY', async () => {
    const res = await s.publicApi.get('/v1/ping').expect(401);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('INVALID_API_KEY');
    expect(res.body.error.requestId).toBe(res.headers['x-request-id']);
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const res = await s.anonymous.get('/nope').expect(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const res = await s.anonymous.post('/auth/login').set('Content-Type', 'application/json').send('{"email":').expect(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  it('validates bodies with 422 items per field', async () => {
    const res = await s.anonymous.post('/auth/signup', { email: 'not-an-email', password: 'short' }).expect(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const fields = res.body.error.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['email', 'password']);
    expect(res.body.error.errors.find((e: { field: string }) => e.field === 'email').code).toBe('invalid_string');
  });
});
