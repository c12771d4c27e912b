import { useSession } from '../support/session';

/** U+0000 cannot be stored by PostgreSQL (text or jsonb): every writer answers 422 and writes nothing. */
describe('text with NUL characters', () => {
  const s = useSession({ DOMAIN_VERIFICATION: 'off', EMAIL_TRANSPORT: 'outbox' });

  it.each([
    ['subject', { subject: 'Hi \u0000', body: '<p>x</p>' }],
    ['body', { subject: 'Hi', body: '<p>\u0000</p>' }],
    ['headers.X-Note', { subject: 'Hi', body: '<p>x</p>', headers: { 'X-Note': 'a\u0000b' } }],
  ])('POST /v1/send with NUL in %s → 422 on that field, nothing written', async (field, extra) => {
    const res = await s.api.post('/v1/send', { to: 'nul-send@example.com', from: 'hello@example.com', ...extra }).expect(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    const contacts = await s.api.get('/contacts', { search: 'nul-send' }).expect(200);
    expect(contacts.body.total).toBe(0);
    expect(contacts.body.data).toEqual([]);
  });

  it.each([
    ['name', { name: 'Welcome\u0000' }],
    ['description', { description: 'd\u0000' }],
    ['body', { body: '<p>\u0000</p>' }],
  ])('POST /templates with NUL in %s → 422 in the error envelope, no template stored', async (_field, extra) => {
    const res = await s.api.post('/templates', { name: 'Welcome', subject: 'Hi', body: '<p>x</p>', from: 'hello@example.com', ...extra }).expect(422);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 422 } });
    const list = await s.api.get('/templates').expect(200);
    expect(JSON.stringify(list.body)).not.toContain('Welcome');
  });
});
