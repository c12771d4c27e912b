import { ProjectSession, useSession } from '../support/session';

describe('templates', () => {
  const s = useSession({ DOMAIN_VERIFICATION: 'off' });
  let other: ProjectSession;
  const valid = { name: 'Welcome', subject: 'Hi {{firstName}}', body: '<p>Hello {{firstName ?? "there"}}</p>', from: 'hello@example.com' };

  beforeAll(async () => {
    other = await s.newProject('Other');
  });

  const create = (body: Record<string, unknown>) => s.api.post('/templates', body);

  it('creates a template with defaults and reads it back', async () => {
    const res = await create({ ...valid, fromName: 'Acme', replyTo: 'Support@Example.com', description: 'first' }).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Welcome',
      description: 'first',
      subject: valid.subject,
      body: valid.body,
      from: 'hello@example.com',
      fromName: 'Acme',
      replyTo: 'support@example.com',
      type: 'MARKETING',
      projectId: s.project.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const got = await s.api.get(`/templates/${res.body.id}`).expect(200);
    expect(got.body).toEqual(res.body);
  });

  it('answers a missing required field with the short 400 body', async () => {
    const { from: _from, ...noFrom } = valid;
    const res = await create(noFrom).expect(400);
    expect(res.body).toEqual({ error: 'from is required' });
    expect((await create({ ...valid, name: '' }).expect(400)).body).toEqual({ error: 'name is required' });
    expect((await create({ ...valid, body: undefined }).expect(400)).body).toEqual({ error: 'body is required' });
  });

  it('rejects malformed values with 422 items', async () => {
    const res = await create({ ...valid, from: 'nope', type: 'SPAM', subject: 'a\nb' }).expect(422);
    const fields = res.body.error.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['from', 'subject', 'type']);
  });

  it('rejects Liquid that does not parse, naming the line', async () => {
    const res = await create({ ...valid, body: '<p>one</p>\n<p>{% if x %}two</p>\n' }).expect(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'body', code: 'invalid_template', message: expect.stringContaining('line 2') })]);
    const created = await create(valid).expect(201);
    const patch = await s.api
      .patch(`/templates/${created.body.id}`)
      .send({ subject: 'Hi {{ name | nosuchfilter }}' })
      .expect(422);
    expect(patch.body.error.errors[0]).toEqual(expect.objectContaining({ field: 'subject', message: expect.stringContaining('line 1') }));
  });

  it('updates, duplicates, reports usage and deletes', async () => {
    const { body: t } = await create({ ...valid, name: 'Orig', type: 'TRANSACTIONAL' }).expect(201);
    const patched = await s.api
      .patch(`/templates/${t.id}`)
      .send({ subject: 'Changed', replyTo: null, description: 'd' })
      .expect(200);
    expect(patched.body).toMatchObject({ subject: 'Changed', replyTo: null, description: 'd', type: 'TRANSACTIONAL', name: 'Orig' });
    expect(new Date(patched.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(t.updatedAt).getTime());
    await s.api.patch(`/templates/${t.id}`).send({ name: null }).expect(422);

    const dup = await s.api.post(`/templates/${t.id}/duplicate`).expect(201);
    expect(dup.body).toMatchObject({ name: 'Orig (copy)', subject: 'Changed', type: 'TRANSACTIONAL' });
    expect(dup.body.id).not.toBe(t.id);

    const usage = await s.api.get(`/templates/${t.id}/usage`).expect(200);
    expect(usage.body).toEqual({ segments: [], campaigns: [], workflows: [] });

    await s.api.delete(`/templates/${t.id}`).expect(204, '');
    await s.api.get(`/templates/${t.id}`).expect(404);
  });

  it('reports usage as the other usage endpoints do: {segments, campaigns, workflows: [{id, name, stepId}]}', async () => {
    const { body: t } = await create({ ...valid, name: 'Used' }).expect(201);
    const wf = (await s.api.post('/workflows', { name: 'Onboarding', eventName: 'signup' }).expect(201)).body;
    const stepIds: string[] = [];
    for (const name of ['first', 'second']) stepIds.push((await s.api.post(`/workflows/${wf.id}/steps`, { type: 'SEND_EMAIL', name, config: { templateId: t.id } }).expect(201)).body.id);
    const usage = await s.api.get(`/templates/${t.id}/usage`).expect(200);
    expect(usage.body).toEqual({
      segments: [],
      campaigns: [],
      workflows: [...stepIds].sort().map((stepId) => ({ id: wf.id, name: 'Onboarding', stepId })),
    });
  });

  it("hides other projects' templates and treats malformed ids as not found", async () => {
    const { body: t } = await create(valid).expect(201);
    for (const [method, path] of [
      ['get', `/templates/${t.id}`],
      ['patch', `/templates/${t.id}`],
      ['delete', `/templates/${t.id}`],
      ['post', `/templates/${t.id}/duplicate`],
      ['get', `/templates/${t.id}/usage`],
      ['get', '/templates/not-a-uuid'],
    ] as const) {
      const res = await other.api[method](path).send({});
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const list = await other.api.get('/templates').expect(200);
    expect(list.body.data.find((x: { id: string }) => x.id === t.id)).toBeUndefined();
  });

  describe('list', () => {
    let scoped: ProjectSession;
    const list = (query: string) => scoped.api.get(`/templates?${query}`).expect(200);

    beforeAll(async () => {
      scoped = await s.newProject('List');
      const names = ['Bravo', 'alpha', 'Charlie', 'Delta', 'Echo'];
      for (const [i, name] of names.entries()) {
        await scoped.api
          .post('/templates')
          .send({ ...valid, name, type: i % 2 ? 'TRANSACTIONAL' : 'MARKETING', description: i === 3 ? 'Needle inside' : null, subject: i === 4 ? 'NEEDLE subject' : 's' })
          .expect(201);
      }
    });

    it('pages with totals', async () => {
      const res = await list('page=2&pageSize=2');
      expect(res.body).toMatchObject({ page: 2, pageSize: 2, total: 5, totalPages: 3 });
      expect(res.body.data).toHaveLength(2);
      const clamped = await list('pageSize=1000');
      expect(clamped.body.pageSize).toBe(100);
    });

    it('sorts by createdAt desc by default, by name on request, and falls back on unknown values', async () => {
      expect((await list('')).body.data.map((t: { name: string }) => t.name)).toEqual(['Echo', 'Delta', 'Charlie', 'alpha', 'Bravo']);
      const byName = (await list('sort=name&dir=asc')).body.data.map((t: { name: string }) => t.name.toLowerCase());
      expect(byName).toEqual([...byName].sort());
      expect((await list('sort=bogus&dir=sideways')).body.data[0].name).toBe('Echo');
    });

    it('filters by type and searches name, description and subject case-insensitively', async () => {
      expect((await list('type=TRANSACTIONAL')).body.total).toBe(2);
      expect((await list('search=needle')).body.data.map((t: { name: string }) => t.name).sort()).toEqual(['Delta', 'Echo']);
      expect((await list('search=ALPHA')).body.total).toBe(1);
      expect((await list('search=%25')).body.total).toBe(0);
    });

    it('rejects invalid paging values', async () => {
      await scoped.api.get('/templates?page=0').expect(422);
      await scoped.api.get('/templates?type=NOPE').expect(422);
    });
  });
});

describe('templates with domain verification on', () => {
  const s = useSession({ EMAIL_TRANSPORT: 'outbox', DOMAIN_VERIFICATION: 'dns', DNS_SERVERS: '127.0.0.1:9' });

  it('refuses a sender on an unverified domain with 403 DOMAIN_NOT_VERIFIED', async () => {
    const res = await s.api
      .post('/templates')
      .send({ name: 'n', subject: 's', body: 'b', from: 'hi@unverified.example' })
      .expect(403);
    expect(res.body.error.code).toBe('DOMAIN_NOT_VERIFIED');
  });
});
