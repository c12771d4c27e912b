import { ProjectSession, useSession, waitFor } from '../support/session';

// Limits, consumption, contacts, campaigns and emails (their count and statuses, to show a
// refused send wrote nothing) are read through the API.
describe('billing limits and consumption', () => {
  const s = useSession({}, { projectName: 'Billing' });
  const limits = (p: ProjectSession) => `/users/@me/projects/${p.project.id}/billing-limits`;
  const send = (p: ProjectSession, to: string[]) => p.api.post('/v1/send', { to, from: 'hello@acme.test', subject: 'Hi', body: '<p>Hi</p>' });
  const emailCount = async (p: ProjectSession) => (await p.api.get('/v1/emails', { limit: 1 }).expect(200)).body.total as number;

  it('reads every category without a cap at first', async () => {
    const res = await s.dashboard.get(limits(s)).expect(200);
    const open = { limit: null, usage: 0, percentage: 0, isWarning: false, isBlocked: false };
    expect(res.body).toEqual({ workflows: open, campaigns: open, transactional: open, inbound: open });
  });

  it('sets and clears caps; rejects negative, zero, non-integer and string limits with 422', async () => {
    const set = await s.dashboard.put(limits(s), { transactional: 5, campaigns: 100 }).expect(200);
    expect(set.body.transactional).toMatchObject({ limit: 5, usage: 0 });
    expect(set.body.campaigns).toMatchObject({ limit: 100 });
    const cleared = await s.dashboard.put(limits(s), { campaigns: null }).expect(200);
    expect(cleared.body.campaigns.limit).toBeNull();
    expect(cleared.body.transactional.limit).toBe(5);
    for (const bad of [{ transactional: -1 }, { transactional: 0 }, { transactional: 2.5 }, { inbound: '10' }]) {
      const res = await s.dashboard.put(limits(s), bad).expect(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await s.dashboard.get(limits(s)).expect(200)).body.transactional.limit).toBe(5);
  });

  it('counts /v1/send and refuses with 402 before anything is written', async () => {
    await send(s, ['a@example.com', 'b@example.com', 'c@example.com']).expect(200);
    const before = await emailCount(s);
    const over = await send(s, ['d@example.com', 'e@example.com', 'f@example.com']).expect(402);
    expect(over.body.error.code).toBe('BILLING_LIMIT_EXCEEDED');
    expect(over.body.error.details).toMatchObject({ category: 'transactional', limit: 5, used: 3, requested: 3 });
    expect(await emailCount(s)).toBe(before);
    expect(await s.read.contacts('f@example.com')).toEqual([]);
    await send(s, ['d@example.com', 'e@example.com']).expect(200);

    const res = await s.dashboard.get(limits(s)).expect(200);
    expect(res.body.transactional).toEqual({ limit: 5, usage: 5, percentage: 100, isWarning: true, isBlocked: true });
    const consumption = await s.dashboard.get(`/users/@me/projects/${s.project.id}/billing-consumption`).expect(200);
    const now = new Date();
    expect(consumption.body).toEqual({
      periodStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      periodEnd: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      transactional: 5,
      campaigns: 0,
      workflows: 0,
      inbound: 0,
    });
  });

  it('never lets concurrent sends overshoot a cap', async () => {
    const p = await s.newProject('Race');
    await p.dashboard.put(limits(p), { transactional: 10 }).expect(200);
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => send(p, [`race${i}@example.com`])));
    const ok = results.filter((r) => r.status === 200).length;
    expect(results.every((r) => r.status === 200 || r.status === 402)).toBe(true);
    expect(ok).toBe(10);
    expect(await emailCount(p)).toBe(10);
  });

  it('refuses a campaign send over the campaigns limit with 402 before anything leaves, and counts what a campaign sends', async () => {
    const p = await s.newProject('Campaign limit');
    for (const email of ['c1@example.com', 'c2@example.com', 'c3@example.com']) await p.api.post('/contacts', { email, subscribed: true }).expect(201);
    await p.api.post('/contacts', { email: 'c4@example.com', subscribed: false }).expect(201);
    await p.dashboard.put(limits(p), { campaigns: 2 }).expect(200);
    const { data: campaign } = (
      await p.api.post('/campaigns', { name: 'Over', subject: 'News', body: '<p>News</p>', from: 'news@acme.test', type: 'MARKETING', audienceType: 'ALL' })
        .expect(201)
    ).body;
    // Three subscribed contacts would receive it (the unsubscribed one is skipped, and not counted).
    const over = await p.api.post(`/campaigns/${campaign.id}/send`, {}).expect(402);
    expect(over.body.error).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED', details: { category: 'campaigns', limit: 2, used: 0, requested: 3 } });
    expect((await p.api.get(`/campaigns/${campaign.id}`).expect(200)).body.status).toBe('DRAFT');
    expect(await emailCount(p)).toBe(0);

    await p.dashboard.put(limits(p), { campaigns: 3 }).expect(200);
    await p.api.post(`/campaigns/${campaign.id}/send`, {}).expect(200);
    await waitFor(async () => ((await p.api.get(`/campaigns/${campaign.id}`).expect(200)).body.status === 'SENT' ? true : undefined), 30_000, 100);
    // The unsubscribed contact's email row is recorded as skipped, and is not counted.
    const byStatus = new Map<string, number>();
    for (const email of await p.read.emails()) byStatus.set(email.status, (byStatus.get(email.status) ?? 0) + 1);
    const statuses = [...byStatus].map(([status, n]) => ({ status, n }));
    expect(statuses.map((r) => [r.status === 'skipped' ? 'skipped' : 'left', r.n]).sort()).toEqual([['left', 3], ['skipped', 1]]);
    const consumption = await p.dashboard.get(`/users/@me/projects/${p.project.id}/billing-consumption`).expect(200);
    expect(consumption.body).toMatchObject({ campaigns: 3, transactional: 0 });
    expect((await p.dashboard.get(limits(p)).expect(200)).body.campaigns).toMatchObject({ limit: 3, usage: 3, isBlocked: true });
  });

  it('lets only OWNER and ADMIN in; strangers get 404, no session 401', async () => {
    const admin = await s.newUser();
    const member = await s.newUser();
    const stranger = await s.newUser();
    const members = `/projects/${s.project.id}/members`;
    await s.dashboard.post(members, { email: admin.email, role: 'ADMIN' }).expect(201);
    await s.dashboard.post(members, { email: member.email, role: 'MEMBER' }).expect(201);
    const consumption = `/users/@me/projects/${s.project.id}/billing-consumption`;
    await admin.dashboard.get(limits(s)).expect(200);
    await admin.dashboard.put(limits(s), { inbound: 50 }).expect(200);
    await admin.dashboard.get(consumption).expect(200);
    for (const req of [member.dashboard.get(limits(s)), member.dashboard.get(consumption)]) {
      expect((await req.expect(403)).body.error.code).toBe('FORBIDDEN');
    }
    await member.dashboard.put(limits(s), { inbound: 1 }).expect(403);
    await stranger.dashboard.get(limits(s)).expect(404);
    await stranger.dashboard.put(limits(s), { inbound: 1 }).expect(404);
    await s.anonymous.get(limits(s)).expect(401);
    await s.api.get(limits(s)).expect(401);
    expect((await s.dashboard.get(limits(s)).expect(200)).body.inbound.limit).toBe(50);
  });
});
