import { TEST_MODE } from '../support/app';
import { bearer, importContacts, ProjectSession, useSession, waitFor } from '../support/session';

const filterTree = (...filters: Array<Record<string, unknown>>) => ({ logic: 'AND', groups: [{ filters }] });
/** The contact ids of the project's events of that name. */
const eventContacts = async (p: ProjectSession, name: string) => (await p.read.events({ name })).map((e) => e.contactId);

describe('segments', () => {
  const s = useSession({ DOMAIN_VERIFICATION: 'off' });
  let other: ProjectSession;

  beforeAll(async () => {
    other = await s.newProject('Other');
    for (const [email, data] of [
      ['ann@example.com', { age: 9, plan: 'pro', renewal: '2026-06-10' }],
      ['bob@example.com', { age: 10, plan: 'basic' }],
      ['cat@example.com', { age: 'old', plan: 'pro' }],
      ['dan@example.com', {}],
    ] as const) {
      await s.api.post('/contacts', { email, data }).expect(201);
    }
    await other.api.post('/contacts', { email: 'ann@example.com', data: { age: 5 } }).expect(201);
    await s.api.post('/v1/track', { email: 'ann@example.com', event: 'purchase' }).expect(200);
  });
  const eventNames = (name: string) => eventContacts(s, name);

  it('creates a dynamic segment with a live memberCount and reads it back', async () => {
    const res = await s.api.post('/segments', { name: 'Young', description: 'under 10', condition: filterTree({ field: 'data.age', operator: 'lt', value: 10 }) })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Young',
      description: 'under 10',
      type: 'DYNAMIC',
      condition: filterTree({ field: 'data.age', operator: 'lt', value: 10 }),
      trackMembership: false,
      memberCount: 1,
      projectId: s.project.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await s.api.get(`/segments/${res.body.id}`).expect(200)).body).toEqual(res.body);
    const page = await s.api.get(`/segments/${res.body.id}/contacts?pageSize=10`).expect(200);
    expect(page.body).toMatchObject({ total: 1, page: 1, pageSize: 10, totalPages: 1 });
    expect(page.body.data.map((c: { email: string }) => c.email)).toEqual(['ann@example.com']);
    // Another project sees neither the segment nor counts its contacts.
    await other.api.get(`/segments/${res.body.id}`).expect(404);
    expect((await other.api.get('/segments').expect(200)).body).toEqual([]);
  });

  it('pages live members newest first with a total that agrees with every page', async () => {
    const p = await s.newProject('Paging');
    for (let i = 0; i < 25; i++) await p.api.post('/contacts', { email: `m${i}@example.com`, data: { cohort: 'paging', n: i } }).expect(201);
    const seg = await p.api.post('/segments', { name: 'Cohort', condition: filterTree({ field: 'data.cohort', operator: 'equals', value: 'paging' }) }).expect(201);
    const page = async (n: number) => (await p.api.get(`/segments/${seg.body.id}/contacts?page=${n}&pageSize=10`).expect(200)).body;
    const first = await page(1);
    expect(first).toMatchObject({ total: 25, totalPages: 3, page: 1, pageSize: 10 });
    expect(first.data.map((c: { email: string }) => c.email)).toEqual(Array.from({ length: 10 }, (_, i) => `m${24 - i}@example.com`));
    expect(await page(3)).toMatchObject({ total: 25, totalPages: 3 });
    expect((await page(3)).data).toHaveLength(5);
    expect(await page(4)).toMatchObject({ data: [], total: 25, totalPages: 3 });
    // Live: a contact that starts matching is on the first page and in the total at once.
    const late = await p.api.post('/contacts', { email: 'late@example.com', data: { cohort: 'paging' } }).expect(201);
    expect(await page(1)).toMatchObject({ total: 26, totalPages: 3, data: expect.arrayContaining([expect.objectContaining({ email: 'late@example.com' })]) });
    await p.api.delete(`/contacts/${late.body.id}`).expect(204);
    expect(await page(3)).toMatchObject({ total: 25 });
  });

  it('answers missing input with the short 400 body and a bad tree with 422 items', async () => {
    expect((await s.api.post('/segments', { condition: filterTree({ field: 'email', operator: 'exists' }) }).expect(400)).body).toEqual({ error: 'name is required' });
    expect((await s.api.post('/segments', { name: null, condition: filterTree({ field: 'email', operator: 'exists' }) }).expect(400)).body).toEqual({ error: 'name is required' });
    expect((await s.api.post('/segments', { name: 'x' }).expect(400)).body).toEqual({ error: expect.stringContaining('condition') });
    const bad = await s.api.post('/segments', {
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
    await s.api.post('/segments', { name: 'n'.repeat(101), condition: filterTree({ field: 'email', operator: 'exists' }) }).expect(422);
    await s.api.post('/segments', { name: 'd', description: 'd'.repeat(501), type: 'STATIC' }).expect(422);
    let deep: Record<string, unknown> = filterTree({ field: 'email', operator: 'exists' });
    for (let i = 0; i < 1000; i++) deep = { logic: 'AND', groups: [{ conditions: deep }] };
    const tooDeep = await s.api.post('/segments', { name: 'deep', condition: deep });
    expect([413, 422]).toContain(tooDeep.status);
    expect(tooDeep.body.success).toBe(false);
  });

  it('refuses a segment id of another project and reference cycles', async () => {
    const foreign = await other.api.post('/segments', { name: 'Theirs', type: 'STATIC' }).expect(201);
    const res = await s.api.post('/segments', { name: 'Ref', condition: filterTree({ field: `segment.${foreign.body.id}`, operator: 'memberOfSegment' }) }).expect(422);
    expect(res.body.error.errors[0]).toMatchObject({ field: 'condition.groups[0].filters[0].field', code: 'unknown_segment' });

    const a = await s.api.post('/segments', { name: 'A', condition: filterTree({ field: 'email', operator: 'exists' }) }).expect(201);
    const b = await s.api.post('/segments', { name: 'B', condition: filterTree({ field: `segment.${a.body.id}`, operator: 'memberOfSegment' }) }).expect(201);
    expect(b.body.memberCount).toBe(4);
    const cycle = await s.api.patch(`/segments/${a.body.id}`, { condition: filterTree({ field: `segment.${b.body.id}`, operator: 'notMemberOfSegment' }) }).expect(422);
    expect(cycle.body.error.errors[0].code).toBe('segment_cycle');
    // A is referenced by B: 409 until B goes.
    const blocked = await s.api.delete(`/segments/${a.body.id}`).expect(409);
    expect(blocked.body.error.details.segments).toEqual([{ id: b.body.id, name: 'B' }]);
    await s.api.delete(`/segments/${b.body.id}`).expect(204);
    await s.api.delete(`/segments/${a.body.id}`).expect(204);
    await s.api.get(`/segments/${a.body.id}`).expect(404);
  });

  it('previews the member count of a condition without saving anything', async () => {
    const before = (await s.api.get('/segments').expect(200)).body.length;
    const pro = await s.api.post('/segments/preview', { condition: filterTree({ field: 'data.plan', operator: 'equals', value: 'pro' }) }).expect(200);
    expect(pro.body).toEqual({ memberCount: 2 });
    expect((await s.api.post('/segments/preview', {}).expect(400)).body).toEqual({ error: expect.stringContaining('condition') });
    const bad = await s.api.post('/segments/preview', { condition: filterTree({ field: 'nope', operator: 'equals', value: 1 }) }).expect(422);
    expect(bad.body.error.errors[0]).toMatchObject({ code: 'unknown_field' });
    expect((await s.api.get('/segments').expect(200)).body).toHaveLength(before);
  });

  it('patches name and condition, refuses a type change', async () => {
    const seg = await s.api.post('/segments', { name: 'Pro', condition: filterTree({ field: 'data.plan', operator: 'equals', value: 'pro' }) }).expect(201);
    expect(seg.body.memberCount).toBe(2);
    const patched = await s.api.patch(`/segments/${seg.body.id}`, { name: 'Pro plan', condition: filterTree({ field: 'data.plan', operator: 'contains', value: 'BAS' }) }).expect(200);
    expect(patched.body).toMatchObject({ name: 'Pro plan', memberCount: 1 });
    // null does not clear a required field: 422 naming it, nothing changed.
    for (const field of ['name', 'trackMembership', 'condition']) {
      const cleared = await s.api.patch(`/segments/${seg.body.id}`, { [field]: null }).expect(422);
      expect(cleared.body.error.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    // A condition that is not a tree is the spec's envelope too (the short 400 is for POST's missing input only).
    for (const condition of ['pro', [], 3]) {
      const wrong = await s.api.patch(`/segments/${seg.body.id}`, { condition }).expect(422);
      expect(wrong.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'condition', code: 'invalid_type' }] });
    }
    expect((await s.api.get(`/segments/${seg.body.id}`).expect(200)).body).toMatchObject({ name: 'Pro plan', memberCount: 1 });
    const typed = await s.api.patch(`/segments/${seg.body.id}`, { type: 'STATIC' }).expect(422);
    expect(typed.body.error.errors[0]).toMatchObject({ field: 'type', code: 'immutable' });
    await s.api.patch(`/segments/${seg.body.id}`, { type: 'DYNAMIC' }).expect(200);
    await s.api.post(`/segments/${seg.body.id}/members`, { emails: ['ann@example.com'] }).expect(400);
    await s.api.post(`/segments/${seg.body.id}/refresh`).expect(200, { memberCount: 1 });
  });

  it('lists segments newest first as a bare array', async () => {
    const list = (await s.api.get('/segments').expect(200)).body as Array<{ createdAt: string; projectId: string }>;
    expect(Array.isArray(list)).toBe(true);
    expect(list.length).toBeGreaterThan(1);
    const times = list.map((x) => x.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(list.every((x) => x.projectId === s.project.id)).toBe(true);
  });

  it('adds and removes static members by email, creating missing contacts on request', async () => {
    const seg = await s.api.post('/segments', { name: 'Hand picked', type: 'STATIC', condition: { ignored: true } }).expect(201);
    expect(seg.body).toMatchObject({ type: 'STATIC', condition: null, memberCount: 0 });
    const added = await s.api.post(`/segments/${seg.body.id}/members`, { emails: ['ANN@example.com', 'new@example.com', 'ann@example.com'] }).expect(200);
    expect(added.body).toEqual({ added: 1, alreadyMembers: 0, created: 0, notFound: ['new@example.com'] });
    const again = await s.api.post(`/segments/${seg.body.id}/members`, { emails: ['ann@example.com', 'new@example.com'], createMissing: true, subscribed: false }).expect(200);
    expect(again.body).toEqual({ added: 1, alreadyMembers: 1, created: 1, notFound: [] });
    expect(await s.read.contactByEmail('new@example.com')).toMatchObject({ subscribed: false });
    expect((await s.api.get(`/segments/${seg.body.id}`).expect(200)).body.memberCount).toBe(2);
    const page = await s.api.get(`/segments/${seg.body.id}/contacts`).expect(200);
    expect(page.body.total).toBe(2);
    // The other project cannot touch it, nor see its members.
    await other.api.post(`/segments/${seg.body.id}/members`, { emails: ['ann@example.com'] }).expect(404);
    await s.api.delete(`/segments/${seg.body.id}/members`, { emails: ['new@example.com', 'nobody@example.com'] }).expect(200, { removed: 1 });
    await s.api.delete(`/segments/${seg.body.id}/members`, { emails: [] }).expect(422);
    await s.api.post(`/segments/${seg.body.id}/compute`).expect(400);
    // A static segment in a filter: its stored members.
    const ref = await s.api.post('/segments', { name: 'Picked pro', condition: filterTree({ field: `segment.${seg.body.id}`, operator: 'memberOfSegment' }, { field: 'data.plan', operator: 'equals', value: 'pro' }) }).expect(201);
    expect(ref.body.memberCount).toBe(1);
    await s.api.get(`/segments/${seg.body.id}/contacts?pageSize=abc`).expect(422);
    expect((await s.api.get(`/segments/${seg.body.id}/contacts?pageSize=1000`).expect(200)).body.pageSize).toBe(100);
  });

  it('compute emits entry and exit events for exactly the contacts that changed', async () => {
    const seg = await s.api.post('/segments', { name: 'VIP Customers', trackMembership: true, condition: filterTree({ field: 'data.plan', operator: 'equals', value: 'pro' }) })
      .expect(201);
    const first = await s.api.post(`/segments/${seg.body.id}/compute`).expect(200);
    expect(first.body).toEqual({ memberCount: 2, entered: 2, exited: 0 });
    expect(await eventNames('segment.vip-customers.entry')).toHaveLength(2);
    await s.api.post(`/segments/${seg.body.id}/compute`).expect(200, { memberCount: 2, entered: 0, exited: 0 });

    await s.api.post('/contacts', { email: 'cat@example.com', data: { plan: 'basic' } }).expect(200);
    await s.api.post('/contacts', { email: 'dan@example.com', data: { plan: 'pro' } }).expect(200);
    await s.api.post(`/segments/${seg.body.id}/refresh`).expect(200, { memberCount: 2 });
    expect(await eventNames('segment.vip-customers.exit')).toHaveLength(0);
    const second = await s.api.post(`/segments/${seg.body.id}/compute`).expect(200);
    expect(second.body).toEqual({ memberCount: 2, entered: 1, exited: 1 });
    const contacts = await s.read.contacts();
    const idOf = (email: string) => contacts.find((c) => c.email === email)!.id;
    expect(await eventNames('segment.vip-customers.exit')).toEqual([idOf('cat@example.com')]);
    expect((await eventNames('segment.vip-customers.entry')).sort()).toEqual([idOf('ann@example.com'), idOf('cat@example.com'), idOf('dan@example.com')].sort());
    const events = await s.api.get('/events?name=segment.vip-customers.exit').expect(200);
    expect(events.body.data[0].data).toEqual({ segmentId: seg.body.id, segmentName: 'VIP Customers' });
    await other.api.post(`/segments/${seg.body.id}/compute`).expect(404);
    await s.api.post('/contacts', { email: 'cat@example.com', data: { plan: 'pro' } }).expect(200);
    await s.api.post('/contacts', { email: 'dan@example.com', data: { plan: 'basic' } }).expect(200);
  });

  it('lists referencing segments in the field and event usage endpoints', async () => {
    const seg = await s.api.post('/segments', { name: 'Usage', condition: filterTree({ field: 'data.renewal', operator: 'within', value: 30, unit: 'days' }, { field: 'event.signup', operator: 'notTriggered' }) }).expect(201);
    const field = await s.api.get('/contacts/fields/data.renewal/usage').expect(200);
    expect(field.body.segments).toContainEqual({ id: seg.body.id, name: 'Usage' });
    const event = await s.api.get('/events/signup/usage').expect(200);
    expect(event.body.segments).toContainEqual({ id: seg.body.id, name: 'Usage' });
    expect((await other.api.get('/events/signup/usage').expect(200)).body.segments).toEqual([]);
  });
});

describe('segments background recompute', () => {
  // A short test-only interval; the main suite keeps the default so its computes are its own.
  const s = useSession({ DOMAIN_VERIFICATION: 'off', SEGMENT_RECOMPUTE_INTERVAL_MS: '300' });

  beforeAll(async () => {
    await s.api.post('/v1/track', { email: 'ann@example.com', event: 'purchase' }).expect(200);
    await s.api.post('/contacts', { email: 'bob@example.com' }).expect(201);
  });
  const bgEvents = (name: string) => eventContacts(s, name);

  it('the background recompute keeps memberCount true and emits the changes', async () => {
    const seg = await s.api.post('/segments', { name: 'Buyers', trackMembership: true, condition: filterTree({ field: 'event.purchase', operator: 'triggeredWithin', value: 1, unit: 'days' }) })
      .expect(201);
    const untracked = await s.api.post('/segments', { name: 'Tracked not', condition: filterTree({ field: 'event.purchase', operator: 'triggered' }) }).expect(201);
    expect(untracked.body.memberCount).toBe(1);
    await waitFor(async () => ((await bgEvents('segment.buyers.entry')).length === 1 ? true : undefined));
    await s.api.post('/v1/track', { email: 'bob@example.com', event: 'purchase' }).expect(200);
    await waitFor(async () => ((await bgEvents('segment.buyers.entry')).length === 2 ? true : undefined));
    await waitFor(async () => ((await s.api.get(`/segments/${seg.body.id}`).expect(200)).body.memberCount === 2 ? true : undefined));
    await waitFor(async () => ((await s.api.get(`/segments/${untracked.body.id}`).expect(200)).body.memberCount === 2 ? true : undefined));
    // Each change is emitted once, however many rounds run: a later round, marked by a third buyer's
    // entry, emits no second entry for the first two.
    await s.api.post('/v1/track', { email: 'cat@example.com', event: 'purchase' }).expect(200);
    const entries = await waitFor(async () => {
      const found = await bgEvents('segment.buyers.entry');
      return found.length >= 3 ? found : undefined;
    });
    expect(entries).toHaveLength(3);
    expect(new Set(entries).size).toBe(3);
  });

});

// PostgreSQL enforces statement_timeout; PGlite (embedded) has no timer to interrupt a statement,
// so this case exists only where the service can stop a query (README, "Segments and filters").
(TEST_MODE === 'services' ? describe : describe.skip)('segments statement timeout (PostgreSQL)', () => {
  const s = useSession({ DOMAIN_VERIFICATION: 'off', SEGMENT_QUERY_TIMEOUT_MS: '1' });

  beforeAll(async () => {
    // Enough contacts that a full scan takes well over 1 ms, in one import.
    const csv = ['email,n', ...Array.from({ length: 50_000 }, (_, i) => `c${i + 1}@example.com,${i + 1}`)].join('\n');
    await importContacts(s.http, bearer(s.keys.secret), csv, 300_000);
  }, 300_000);

  it('stops a segment query past SEGMENT_QUERY_TIMEOUT_MS and answers 422 naming the segment', async () => {
    const res = await s.api
      .post('/segments')
      .send({ name: 'Slow', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.n', operator: 'notContains', value: 'zz' }] }] } })
      .expect(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('segment "Slow"') });
    expect(res.body.error.errors[0]).toMatchObject({ field: 'condition', code: 'query_timeout' });
    // Nothing was written.
    expect((await s.api.get('/segments').expect(200)).body).toEqual([]);
  });
});
