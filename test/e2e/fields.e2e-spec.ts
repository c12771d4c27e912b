import { ProjectSession, useSession } from '../support/session';

describe('contact fields', () => {
  const s = useSession();
  let other: ProjectSession;
  beforeAll(async () => {
    other = await s.newProject('Other');
  });

  const fieldsOf = async (p: ProjectSession = s) => (await p.api.get('/contacts/fields').expect(200)).body.fields as Array<{ field: string; type: string; isCustom: boolean; coverage: number }>;

  it('lists standard fields with zero coverage on an empty project', async () => {
    const fresh = await s.newProject('Empty');
    expect(await fieldsOf(fresh)).toEqual([
      { field: 'email', type: 'string', isCustom: false, coverage: 0 },
      { field: 'subscribed', type: 'boolean', isCustom: false, coverage: 0 },
      { field: 'createdAt', type: 'date', isCustom: false, coverage: 0 },
      { field: 'updatedAt', type: 'date', isCustom: false, coverage: 0 },
    ]);
  });

  it('infers types from the first non-null value and reports coverage', async () => {
    await s.api.post('/contacts', { email: 'a@example.com', data: { plan: 'pro', seats: 3, vip: true, renewsOn: '2025-01-31', seen: '2025-01-31T10:00:00.000Z', profile: { tier: 'gold' }, gone: null } }).expect(201);
    await s.api.post('/contacts', { email: 'b@example.com', data: { plan: 'free', seats: 'many', vip: false } }).expect(201);
    await s.api.post('/contacts', { email: 'c@example.com', data: { plan: 'pro' } }).expect(201);
    await s.api.post('/contacts', { email: 'd@example.com' }).expect(201);
    const fields = await fieldsOf();
    expect(fields.slice(0, 4).every((f) => f.coverage === 1 && !f.isCustom)).toBe(true);
    expect(fields.filter((f) => f.isCustom)).toEqual([
      { field: 'data.plan', type: 'string', isCustom: true, coverage: 0.75 },
      { field: 'data.profile.tier', type: 'string', isCustom: true, coverage: 0.25 },
      { field: 'data.renewsOn', type: 'date', isCustom: true, coverage: 0.25 },
      { field: 'data.seats', type: 'number', isCustom: true, coverage: 0.5 },
      { field: 'data.seen', type: 'date', isCustom: true, coverage: 0.25 },
      { field: 'data.vip', type: 'boolean', isCustom: true, coverage: 0.5 },
    ]);
    expect(await fieldsOf(other)).toHaveLength(4);
  });

  it('lists distinct values most frequent first, paginated', async () => {
    const res = await s.api.get('/contacts/fields/data.plan/values').expect(200);
    expect(res.body).toEqual({ data: [{ value: 'pro', count: 2 }, { value: 'free', count: 1 }], cursor: null, hasMore: false, total: 2 });
    const p1 = await s.api.get('/contacts/fields/data.plan/values?limit=1').expect(200);
    expect(p1.body).toMatchObject({ data: [{ value: 'pro', count: 2 }], hasMore: true, total: 2 });
    const p2 = await s.api.get(`/contacts/fields/data.plan/values?limit=1&cursor=${p1.body.cursor}`).expect(200);
    expect(p2.body).toMatchObject({ data: [{ value: 'free', count: 1 }], hasMore: false, total: 0 });
    const nested = await s.api.get('/contacts/fields/data.profile.tier/values').expect(200);
    expect(nested.body.data).toEqual([{ value: 'gold', count: 1 }]);
    const subscribed = await s.api.get('/contacts/fields/subscribed/values').expect(200);
    expect(subscribed.body.data).toEqual([{ value: true, count: 4 }]);
    await s.api.get('/contacts/fields/data.nope/values').expect(404);
    await s.api.get('/contacts/fields/bogus/values').expect(404);
    await other.api.get('/contacts/fields/data.plan/values').expect(404);
  });

  it('reports usage from a real query (empty until segments, campaigns and workflows reference it)', async () => {
    const res = await s.api.get('/contacts/fields/data.plan/usage').expect(200);
    expect(res.body).toEqual({ field: 'data.plan', segments: [], campaigns: [], workflows: [], total: 0 });
    await s.api.get('/contacts/fields/email/usage').expect(200);
    await s.api.get('/contacts/fields/nonsense/usage').expect(404);
  });

  it('deletes a field from every contact and from the types; other projects untouched', async () => {
    await other.api.post('/contacts', { email: 'o@example.com', data: { plan: 'keep' } }).expect(201);
    await s.api.del('/contacts/fields/data.plan').expect(204);
    const fields = await fieldsOf();
    expect(fields.find((f) => f.field === 'data.plan')).toBeUndefined();
    const list = await s.api.get('/contacts?limit=100').expect(200);
    expect(list.body.data.every((c: { data: Record<string, unknown> }) => !('plan' in c.data))).toBe(true);
    const theirs = await other.api.get('/contacts').expect(200);
    expect(theirs.body.data[0].data).toEqual({ plan: 'keep' });
    await s.api.del('/contacts/fields/data.plan').expect(404);
    await s.api.del('/contacts/fields/email').expect(400);
    await s.api.del('/contacts/fields/whatever').expect(404);
  });

  it('deletes a nested path and re-types a key on its next first value', async () => {
    await s.api.del('/contacts/fields/data.profile').expect(204);
    expect((await fieldsOf()).find((f) => f.field.startsWith('data.profile'))).toBeUndefined();
    await s.api.post('/contacts', { email: 'e@example.com', data: { plan: 42 } }).expect(201);
    expect((await fieldsOf()).find((f) => f.field === 'data.plan')).toMatchObject({ type: 'number' });
  });

  it('keysPerContact: a contact holds at most 1,000 keys, nested counted; one more is a 422 naming the limit', async () => {
    const p = await s.newProject('Keys per contact');
    const keys = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
    const id = (await p.api.post('/contacts', { email: 'full@example.com', data: keys('k', 1_000) }).expect(201)).body.id;
    const before = (await p.api.get(`/contacts/${id}`).expect(200)).body;
    const writes = [
      p.api.patch(`/contacts/${id}`, { data: { one_more: 1 } }),
      p.api.post('/contacts', { email: 'full@example.com', data: { nested: { one: 1 } } }),
      p.api.post('/v1/track', { email: 'full@example.com', event: 'e', data: { one_more: 1 } }),
    ];
    for (const write of writes) {
      const res = await write.expect(422);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'data', code: 'too_big', message: expect.stringContaining('keysPerContact') });
    }
    expect((await p.api.get(`/contacts/${id}`).expect(200)).body).toEqual(before);
    // Replacing a key keeps the count: allowed.
    await p.api.patch(`/contacts/${id}`, { data: { k0: null, replaced: 'x' } }).expect(200);
    // Nested keys count by path: 999 + an object of 2 leaves is 1,001.
    const nested = await p.api.post('/contacts', { email: 'nested@example.com', data: keys('n', 999) }).expect(201);
    await p.api.patch(`/contacts/${nested.body.id}`, { data: { profile: { a: 1, b: 2 } } }).expect(422);
    await p.api.patch(`/contacts/${nested.body.id}`, { data: { profile: { a: 1 } } }).expect(200);
  });
});
