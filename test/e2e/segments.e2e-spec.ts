import request from 'supertest';
import { DataSource } from 'typeorm';
import { createProject, startTestApp, TEST_MODE, TestApp, TestProject, waitFor } from '../support/app';

describe('segments', () => {
  let app: TestApp;
  let project: TestProject;
  let other: TestProject;

  beforeAll(async () => {
    app = await startTestApp({ DOMAIN_VERIFICATION: 'off' });
    project = await createProject(app.http);
    other = await createProject(app.http, 'Other');
    for (const [email, data] of [
      ['ann@example.com', { age: 9, plan: 'pro', renewal: '2026-06-10' }],
      ['bob@example.com', { age: 10, plan: 'basic' }],
      ['cat@example.com', { age: 'old', plan: 'pro' }],
      ['dan@example.com', {}],
    ] as const) {
      await api('post', '/contacts').send({ email, data }).expect(201);
    }
    await request(app.http).post('/contacts').set('Authorization', `Bearer ${other.secretKey}`).send({ email: 'ann@example.com', data: { age: 5 } }).expect(201);
    await api('post', '/v1/track').send({ email: 'ann@example.com', event: 'purchase' }).expect(200);
  });
  afterAll(() => app?.close());

  function api(method: 'get' | 'post' | 'patch' | 'delete', path: string, key = project.secretKey) {
    return request(app.http)[method](path).set('Authorization', `Bearer ${key}`);
  }
  const filterTree = (...filters: Array<Record<string, unknown>>) => ({ logic: 'AND', groups: [{ filters }] });
  const eventNames = async (name: string) => {
    const res = await api('get', `/events?name=${encodeURIComponent(name)}&limit=100`).expect(200);
    return (res.body.data as Array<{ contactId: string }>).map((e) => e.contactId);
  };

  it('creates a dynamic segment with a live memberCount and reads it back', async () => {
    const res = await api('post', '/segments')
      .send({ name: 'Young', description: 'under 10', condition: filterTree({ field: 'data.age', operator: 'lt', value: 10 }) })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Young',
      description: 'under 10',
      type: 'DYNAMIC',
      condition: filterTree({ field: 'data.age', operator: 'lt', value: 10 }),
      trackMembership: false,
      memberCount: 1,
      projectId: project.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api('get', `/segments/${res.body.id}`).expect(200)).body).toEqual(res.body);
    const page = await api('get', `/segments/${res.body.id}/contacts?pageSize=10`).expect(200);
    expect(page.body).toMatchObject({ total: 1, page: 1, pageSize: 10, totalPages: 1 });
    expect(page.body.data.map((c: { email: string }) => c.email)).toEqual(['ann@example.com']);
    // Another project sees neither the segment nor counts its contacts.
    await api('get', `/segments/${res.body.id}`, other.secretKey).expect(404);
    expect((await api('get', '/segments', other.secretKey).expect(200)).body).toEqual([]);
  });

  it('answers missing input with the short 400 body and a bad tree with 422 items', async () => {
    expect((await api('post', '/segments').send({ condition: filterTree({ field: 'email', operator: 'exists' }) }).expect(400)).body).toEqual({ error: 'name is required' });
    expect((await api('post', '/segments').send({ name: null, condition: filterTree({ field: 'email', operator: 'exists' }) }).expect(400)).body).toEqual({ error: 'name is required' });
    expect((await api('post', '/segments').send({ name: 'x' }).expect(400)).body).toEqual({ error: expect.stringContaining('condition') });
    const bad = await api('post', '/segments')
      .send({
        name: 'Bad',
        condition: filterTree(
          { field: 'nope', operator: 'equals', value: 1 },
          { field: 'data.age', operator: 'bigger', value: 1 },
          { field: 'createdAt', operator: 'within', value: '3', unit: 'days' },
          { field: 'event.x', operator: 'triggeredWithin', value: 3 },
        ),
      })
      .expect(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`)).toEqual([
      'condition.groups[0].filters[0].field:unknown_field',
      'condition.groups[0].filters[1].operator:unknown_operator',
      'condition.groups[0].filters[2].value:invalid_type',
      'condition.groups[0].filters[3].unit:required',
    ]);
    await api('post', '/segments').send({ name: 'n'.repeat(101), condition: filterTree({ field: 'email', operator: 'exists' }) }).expect(422);
    await api('post', '/segments').send({ name: 'd', description: 'd'.repeat(501), type: 'STATIC' }).expect(422);
    let deep: Record<string, unknown> = filterTree({ field: 'email', operator: 'exists' });
    for (let i = 0; i < 1000; i++) deep = { logic: 'AND', groups: [{ conditions: deep }] };
    const tooDeep = await api('post', '/segments').send({ name: 'deep', condition: deep });
    expect([413, 422]).toContain(tooDeep.status);
    expect(tooDeep.body.success).toBe(false);
  });

  it('refuses a segment id of another project and reference cycles', async () => {
    const foreign = await api('post', '/segments', other.secretKey).send({ name: 'Theirs', type: 'STATIC' }).expect(201);
    const res = await api('post', '/segments').send({ name: 'Ref', condition: filterTree({ field: `segment.${foreign.body.id}`, operator: 'memberOfSegment' }) }).expect(422);
    expect(res.body.error.errors[0]).toMatchObject({ field: 'condition.groups[0].filters[0].field', code: 'unknown_segment' });

    const a = await api('post', '/segments').send({ name: 'A', condition: filterTree({ field: 'email', operator: 'exists' }) }).expect(201);
    const b = await api('post', '/segments').send({ name: 'B', condition: filterTree({ field: `segment.${a.body.id}`, operator: 'memberOfSegment' }) }).expect(201);
    expect(b.body.memberCount).toBe(4);
    const cycle = await api('patch', `/segments/${a.body.id}`).send({ condition: filterTree({ field: `segment.${b.body.id}`, operator: 'notMemberOfSegment' }) }).expect(422);
    expect(cycle.body.error.errors[0].code).toBe('segment_cycle');
    // A is referenced by B: 409 until B goes.
    const blocked = await api('delete', `/segments/${a.body.id}`).expect(409);
    expect(blocked.body.error.details.segments).toEqual([{ id: b.body.id, name: 'B' }]);
    await api('delete', `/segments/${b.body.id}`).expect(204);
    await api('delete', `/segments/${a.body.id}`).expect(204);
    await api('get', `/segments/${a.body.id}`).expect(404);
  });

  it('previews the member count of a condition without saving anything', async () => {
    const before = (await api('get', '/segments').expect(200)).body.length;
    const pro = await api('post', '/segments/preview').send({ condition: filterTree({ field: 'data.plan', operator: 'equals', value: 'pro' }) }).expect(200);
    expect(pro.body).toEqual({ memberCount: 2 });
    expect((await api('post', '/segments/preview').send({}).expect(400)).body).toEqual({ error: expect.stringContaining('condition') });
    const bad = await api('post', '/segments/preview').send({ condition: filterTree({ field: 'nope', operator: 'equals', value: 1 }) }).expect(422);
    expect(bad.body.error.errors[0]).toMatchObject({ code: 'unknown_field' });
    expect((await api('get', '/segments').expect(200)).body).toHaveLength(before);
  });

  it('patches name and condition, refuses a type change', async () => {
    const s = await api('post', '/segments').send({ name: 'Pro', condition: filterTree({ field: 'data.plan', operator: 'equals', value: 'pro' }) }).expect(201);
    expect(s.body.memberCount).toBe(2);
    const patched = await api('patch', `/segments/${s.body.id}`).send({ name: 'Pro plan', condition: filterTree({ field: 'data.plan', operator: 'contains', value: 'BAS' }) }).expect(200);
    expect(patched.body).toMatchObject({ name: 'Pro plan', memberCount: 1 });
    // null does not clear a required field: 422 naming it, nothing changed.
    for (const field of ['name', 'trackMembership']) {
      const cleared = await api('patch', `/segments/${s.body.id}`).send({ [field]: null }).expect(422);
      expect(cleared.body.error.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    const typed = await api('patch', `/segments/${s.body.id}`).send({ type: 'STATIC' }).expect(422);
    expect(typed.body.error.errors[0]).toMatchObject({ field: 'type', code: 'immutable' });
    await api('patch', `/segments/${s.body.id}`).send({ type: 'DYNAMIC' }).expect(200);
    await api('post', `/segments/${s.body.id}/members`).send({ emails: ['ann@example.com'] }).expect(400);
    await api('post', `/segments/${s.body.id}/refresh`).expect(200, { memberCount: 1 });
  });

  it('lists segments newest first as a bare array', async () => {
    const list = (await api('get', '/segments').expect(200)).body as Array<{ createdAt: string; projectId: string }>;
    expect(Array.isArray(list)).toBe(true);
    expect(list.length).toBeGreaterThan(1);
    const times = list.map((s) => s.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(list.every((s) => s.projectId === project.id)).toBe(true);
  });

  it('adds and removes static members by email, creating missing contacts on request', async () => {
    const s = await api('post', '/segments').send({ name: 'Hand picked', type: 'STATIC', condition: { ignored: true } }).expect(201);
    expect(s.body).toMatchObject({ type: 'STATIC', condition: null, memberCount: 0 });
    const added = await api('post', `/segments/${s.body.id}/members`).send({ emails: ['ANN@example.com', 'new@example.com', 'ann@example.com'] }).expect(200);
    expect(added.body).toEqual({ added: 1, alreadyMembers: 0, created: 0, notFound: ['new@example.com'] });
    const again = await api('post', `/segments/${s.body.id}/members`).send({ emails: ['ann@example.com', 'new@example.com'], createMissing: true, subscribed: false }).expect(200);
    expect(again.body).toEqual({ added: 1, alreadyMembers: 1, created: 1, notFound: [] });
    const created = await api('get', '/contacts?limit=100').expect(200);
    expect(created.body.data.find((c: { email: string }) => c.email === 'new@example.com')).toMatchObject({ subscribed: false });
    expect((await api('get', `/segments/${s.body.id}`).expect(200)).body.memberCount).toBe(2);
    const page = await api('get', `/segments/${s.body.id}/contacts`).expect(200);
    expect(page.body.total).toBe(2);
    // The other project cannot touch it, nor see its members.
    await api('post', `/segments/${s.body.id}/members`, other.secretKey).send({ emails: ['ann@example.com'] }).expect(404);
    await api('delete', `/segments/${s.body.id}/members`).send({ emails: ['new@example.com', 'nobody@example.com'] }).expect(200, { removed: 1 });
    await api('delete', `/segments/${s.body.id}/members`).send({ emails: [] }).expect(422);
    await api('post', `/segments/${s.body.id}/compute`).expect(400);
    // A static segment in a filter: its stored members.
    const ref = await api('post', '/segments').send({ name: 'Picked pro', condition: filterTree({ field: `segment.${s.body.id}`, operator: 'memberOfSegment' }, { field: 'data.plan', operator: 'equals', value: 'pro' }) }).expect(201);
    expect(ref.body.memberCount).toBe(1);
    await api('get', `/segments/${s.body.id}/contacts?pageSize=abc`).expect(422);
    expect((await api('get', `/segments/${s.body.id}/contacts?pageSize=1000`).expect(200)).body.pageSize).toBe(100);
  });

  it('compute emits entry and exit events for exactly the contacts that changed', async () => {
    const s = await api('post', '/segments')
      .send({ name: 'VIP Customers', trackMembership: true, condition: filterTree({ field: 'data.plan', operator: 'equals', value: 'pro' }) })
      .expect(201);
    const first = await api('post', `/segments/${s.body.id}/compute`).expect(200);
    expect(first.body).toEqual({ memberCount: 2, entered: 2, exited: 0 });
    expect(await eventNames('segment.vip-customers.entry')).toHaveLength(2);
    await api('post', `/segments/${s.body.id}/compute`).expect(200, { memberCount: 2, entered: 0, exited: 0 });

    await api('post', '/contacts').send({ email: 'cat@example.com', data: { plan: 'basic' } }).expect(200);
    await api('post', '/contacts').send({ email: 'dan@example.com', data: { plan: 'pro' } }).expect(200);
    await api('post', `/segments/${s.body.id}/refresh`).expect(200, { memberCount: 2 });
    expect(await eventNames('segment.vip-customers.exit')).toHaveLength(0);
    const second = await api('post', `/segments/${s.body.id}/compute`).expect(200);
    expect(second.body).toEqual({ memberCount: 2, entered: 1, exited: 1 });
    const contacts = (await api('get', '/contacts?limit=100').expect(200)).body.data as Array<{ id: string; email: string }>;
    const idOf = (email: string) => contacts.find((c) => c.email === email)!.id;
    expect(await eventNames('segment.vip-customers.exit')).toEqual([idOf('cat@example.com')]);
    expect((await eventNames('segment.vip-customers.entry')).sort()).toEqual([idOf('ann@example.com'), idOf('cat@example.com'), idOf('dan@example.com')].sort());
    const events = await api('get', '/events?name=segment.vip-customers.exit').expect(200);
    expect(events.body.data[0].data).toEqual({ segmentId: s.body.id, segmentName: 'VIP Customers' });
    await api('post', `/segments/${s.body.id}/compute`, other.secretKey).expect(404);
    await api('post', '/contacts').send({ email: 'cat@example.com', data: { plan: 'pro' } }).expect(200);
    await api('post', '/contacts').send({ email: 'dan@example.com', data: { plan: 'basic' } }).expect(200);
  });

  it('lists referencing segments in the field and event usage endpoints', async () => {
    const s = await api('post', '/segments').send({ name: 'Usage', condition: filterTree({ field: 'data.renewal', operator: 'within', value: 30, unit: 'days' }, { field: 'event.signup', operator: 'notTriggered' }) }).expect(201);
    const field = await api('get', '/contacts/fields/data.renewal/usage').expect(200);
    expect(field.body.segments).toContainEqual({ id: s.body.id, name: 'Usage' });
    const event = await api('get', '/events/signup/usage').expect(200);
    expect(event.body.segments).toContainEqual({ id: s.body.id, name: 'Usage' });
    expect((await api('get', '/events/signup/usage', other.secretKey).expect(200)).body.segments).toEqual([]);
  });
});

describe('segments background recompute', () => {
  let app: TestApp;
  let project: TestProject;

  beforeAll(async () => {
    // A short test-only interval; the main suite keeps the default so its computes are its own.
    app = await startTestApp({ DOMAIN_VERIFICATION: 'off', SEGMENT_RECOMPUTE_INTERVAL_MS: '300' });
    project = await createProject(app.http);
    await bgApi('post', '/v1/track').send({ email: 'ann@example.com', event: 'purchase' }).expect(200);
    await bgApi('post', '/contacts').send({ email: 'bob@example.com' }).expect(201);
  });
  afterAll(() => app?.close());

  function bgApi(method: 'get' | 'post', path: string) {
    return request(app.http)[method](path).set('Authorization', `Bearer ${project.secretKey}`);
  }
  const filterTree = (...filters: Array<Record<string, unknown>>) => ({ logic: 'AND', groups: [{ filters }] });
  const bgEvents = async (name: string) => {
    const res = await bgApi('get', `/events?name=${encodeURIComponent(name)}&limit=100`).expect(200);
    return (res.body.data as Array<{ contactId: string }>).map((e) => e.contactId);
  };

  it('the background recompute keeps memberCount true and emits the changes', async () => {
    const s = await bgApi('post', '/segments')
      .send({ name: 'Buyers', trackMembership: true, condition: filterTree({ field: 'event.purchase', operator: 'triggeredWithin', value: 1, unit: 'days' }) })
      .expect(201);
    const untracked = await bgApi('post', '/segments').send({ name: 'Tracked not', condition: filterTree({ field: 'event.purchase', operator: 'triggered' }) }).expect(201);
    expect(untracked.body.memberCount).toBe(1);
    await waitFor(async () => ((await bgEvents('segment.buyers.entry')).length === 1 ? true : undefined));
    await bgApi('post', '/v1/track').send({ email: 'bob@example.com', event: 'purchase' }).expect(200);
    await waitFor(async () => ((await bgEvents('segment.buyers.entry')).length === 2 ? true : undefined));
    await waitFor(async () => ((await bgApi('get', `/segments/${s.body.id}`).expect(200)).body.memberCount === 2 ? true : undefined));
    await waitFor(async () => ((await bgApi('get', `/segments/${untracked.body.id}`).expect(200)).body.memberCount === 2 ? true : undefined));
    // Each change is emitted once, however many rounds run.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await bgEvents('segment.buyers.entry')).toHaveLength(2);
  });

});

// PostgreSQL enforces statement_timeout; PGlite (embedded) has no timer to interrupt a statement,
// so this case exists only where the service can stop a query (README, "Segments and filters").
(TEST_MODE === 'services' ? describe : describe.skip)('segments statement timeout (PostgreSQL)', () => {
  let app: TestApp;
  let project: TestProject;

  beforeAll(async () => {
    app = await startTestApp({ DOMAIN_VERIFICATION: 'off', SEGMENT_QUERY_TIMEOUT_MS: '1' });
    project = await createProject(app.http);
    // Enough contacts that a full scan takes well over 1 ms (seeded set-based, not through 50k requests).
    await app.runtime.app.get(DataSource).query(
      `INSERT INTO contacts (project_id, email, data) SELECT $1, 'c' || g || '@example.com', jsonb_build_object('n', g) FROM generate_series(1, 50000) g`,
      [project.id],
    );
  });
  afterAll(() => app?.close());

  it('stops a segment query past SEGMENT_QUERY_TIMEOUT_MS and answers 422 naming the segment', async () => {
    const res = await request(app.http)
      .post('/segments')
      .set('Authorization', `Bearer ${project.secretKey}`)
      .send({ name: 'Slow', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.n', operator: 'notContains', value: 'zz' }] }] } })
      .expect(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('segment "Slow"') });
    expect(res.body.error.errors[0]).toMatchObject({ field: 'condition', code: 'query_timeout' });
    // Nothing was written.
    expect((await request(app.http).get('/segments').set('Authorization', `Bearer ${project.secretKey}`).expect(200)).body).toEqual([]);
  });
});
