import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createProject, startTestApp, TestApp, TestProject, waitFor } from '../support/app';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

async function signup(app: TestApp): Promise<{ email: string; cookie: string }> {
  const email = `billing-${randomBytes(6).toString('hex')}@example.com`;
  const res = await request(app.http).post('/auth/signup').send({ email, password: 'correct horse battery' }).expect(201);
  return { email, cookie: [res.headers['set-cookie']].flat()[0].split(';')[0] };
}

describe('billing limits and consumption', () => {
  let app: TestApp;
  let project: TestProject;
  let db: DataSource;
  const as = (cookie: string, req: request.Test) => req.set('Cookie', cookie).set(XHR);
  const limits = (p: TestProject) => `/users/@me/projects/${p.id}/billing-limits`;
  const send = (p: TestProject, to: string[]) =>
    request(app.http).post('/v1/send').set('Authorization', `Bearer ${p.secretKey}`).send({ to, from: 'hello@acme.test', subject: 'Hi', body: '<p>Hi</p>' });
  const emailCount = async (p: TestProject) => Number((await db.query(`SELECT count(*) AS n FROM emails WHERE project_id = $1`, [p.id]))[0].n);

  beforeAll(async () => {
    app = await startTestApp();
    db = app.runtime.app.get(DataSource);
    project = await createProject(app.http, 'Billing');
  });
  afterAll(() => app?.close());

  it('reads every category without a cap at first', async () => {
    const res = await as(project.cookie, request(app.http).get(limits(project))).expect(200);
    const open = { limit: null, usage: 0, percentage: 0, isWarning: false, isBlocked: false };
    expect(res.body).toEqual({ workflows: open, campaigns: open, transactional: open, inbound: open });
  });

  it('sets and clears caps; rejects negative, zero, non-integer and string limits with 422', async () => {
    const set = await as(project.cookie, request(app.http).put(limits(project))).send({ transactional: 5, campaigns: 100 }).expect(200);
    expect(set.body.transactional).toMatchObject({ limit: 5, usage: 0 });
    expect(set.body.campaigns).toMatchObject({ limit: 100 });
    const cleared = await as(project.cookie, request(app.http).put(limits(project))).send({ campaigns: null }).expect(200);
    expect(cleared.body.campaigns.limit).toBeNull();
    expect(cleared.body.transactional.limit).toBe(5);
    for (const bad of [{ transactional: -1 }, { transactional: 0 }, { transactional: 2.5 }, { inbound: '10' }]) {
      const res = await as(project.cookie, request(app.http).put(limits(project))).send(bad).expect(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await as(project.cookie, request(app.http).get(limits(project))).expect(200)).body.transactional.limit).toBe(5);
  });

  it('counts /v1/send and refuses with 402 before anything is written', async () => {
    await send(project, ['a@example.com', 'b@example.com', 'c@example.com']).expect(200);
    const before = await emailCount(project);
    const over = await send(project, ['d@example.com', 'e@example.com', 'f@example.com']).expect(402);
    expect(over.body.error.code).toBe('BILLING_LIMIT_EXCEEDED');
    expect(over.body.error.details).toMatchObject({ category: 'transactional', limit: 5, used: 3, requested: 3 });
    expect(await emailCount(project)).toBe(before);
    const contacts = await request(app.http).get('/contacts').query({ search: 'f@example.com' }).set('Authorization', `Bearer ${project.secretKey}`).expect(200);
    expect(contacts.body.data).toEqual([]);
    await send(project, ['d@example.com', 'e@example.com']).expect(200);

    const res = await as(project.cookie, request(app.http).get(limits(project))).expect(200);
    expect(res.body.transactional).toEqual({ limit: 5, usage: 5, percentage: 100, isWarning: true, isBlocked: true });
    const consumption = await as(project.cookie, request(app.http).get(`/users/@me/projects/${project.id}/billing-consumption`)).expect(200);
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
    const p = await createProject(app.http, 'Race');
    await as(p.cookie, request(app.http).put(limits(p))).send({ transactional: 10 }).expect(200);
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => send(p, [`race${i}@example.com`])));
    const ok = results.filter((r) => r.status === 200).length;
    expect(results.every((r) => r.status === 200 || r.status === 402)).toBe(true);
    expect(ok).toBe(10);
    expect(await emailCount(p)).toBe(10);
  });

  it('refuses a campaign send over the campaigns limit with 402 before anything leaves, and counts what a campaign sends', async () => {
    const p = await createProject(app.http, 'Campaign limit');
    const api = (req: request.Test) => req.set('Authorization', `Bearer ${p.secretKey}`);
    for (const email of ['c1@example.com', 'c2@example.com', 'c3@example.com']) await api(request(app.http).post('/contacts')).send({ email, subscribed: true }).expect(201);
    await api(request(app.http).post('/contacts')).send({ email: 'c4@example.com', subscribed: false }).expect(201);
    await as(p.cookie, request(app.http).put(limits(p))).send({ campaigns: 2 }).expect(200);
    const { data: campaign } = (
      await api(request(app.http).post('/campaigns'))
        .send({ name: 'Over', subject: 'News', body: '<p>News</p>', from: 'news@acme.test', type: 'MARKETING', audienceType: 'ALL' })
        .expect(201)
    ).body;
    // Three subscribed contacts would receive it (the unsubscribed one is skipped, and not counted).
    const over = await api(request(app.http).post(`/campaigns/${campaign.id}/send`)).send({}).expect(402);
    expect(over.body.error).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED', details: { category: 'campaigns', limit: 2, used: 0, requested: 3 } });
    expect((await api(request(app.http).get(`/campaigns/${campaign.id}`)).expect(200)).body.status).toBe('DRAFT');
    expect(await emailCount(p)).toBe(0);

    await as(p.cookie, request(app.http).put(limits(p))).send({ campaigns: 3 }).expect(200);
    await api(request(app.http).post(`/campaigns/${campaign.id}/send`)).send({}).expect(200);
    await waitFor(async () => ((await api(request(app.http).get(`/campaigns/${campaign.id}`)).expect(200)).body.status === 'SENT' ? true : undefined), 30_000, 100);
    // The unsubscribed contact's email row is recorded as skipped, and is not counted.
    const statuses = await db.query(`SELECT status, count(*)::int AS n FROM emails WHERE project_id = $1 GROUP BY status ORDER BY status`, [p.id]);
    expect(statuses.map((r: { status: string; n: number }) => [r.status === 'skipped' ? 'skipped' : 'left', r.n]).sort()).toEqual([['left', 3], ['skipped', 1]]);
    const consumption = await as(p.cookie, request(app.http).get(`/users/@me/projects/${p.id}/billing-consumption`)).expect(200);
    expect(consumption.body).toMatchObject({ campaigns: 3, transactional: 0 });
    expect((await as(p.cookie, request(app.http).get(limits(p))).expect(200)).body.campaigns).toMatchObject({ limit: 3, usage: 3, isBlocked: true });
  });

  it('lets only OWNER and ADMIN in; strangers get 404, no session 401', async () => {
    const admin = await signup(app);
    const member = await signup(app);
    const stranger = await signup(app);
    const members = `/projects/${project.id}/members`;
    await as(project.cookie, request(app.http).post(members)).send({ email: admin.email, role: 'ADMIN' }).expect(201);
    await as(project.cookie, request(app.http).post(members)).send({ email: member.email, role: 'MEMBER' }).expect(201);
    const consumption = `/users/@me/projects/${project.id}/billing-consumption`;
    await as(admin.cookie, request(app.http).get(limits(project))).expect(200);
    await as(admin.cookie, request(app.http).put(limits(project))).send({ inbound: 50 }).expect(200);
    await as(admin.cookie, request(app.http).get(consumption)).expect(200);
    for (const req of [request(app.http).get(limits(project)), request(app.http).get(consumption)]) {
      expect((await as(member.cookie, req).expect(403)).body.error.code).toBe('FORBIDDEN');
    }
    await as(member.cookie, request(app.http).put(limits(project))).send({ inbound: 1 }).expect(403);
    await as(stranger.cookie, request(app.http).get(limits(project))).expect(404);
    await as(stranger.cookie, request(app.http).put(limits(project))).send({ inbound: 1 }).expect(404);
    await request(app.http).get(limits(project)).expect(401);
    await request(app.http).get(limits(project)).set('Authorization', `Bearer ${project.secretKey}`).expect(401);
    expect((await as(project.cookie, request(app.http).get(limits(project))).expect(200)).body.inbound.limit).toBe(50);
  });
});
