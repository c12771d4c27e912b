import { randomUUID } from 'node:crypto';
import { outboxMessage, pathOf } from '../support/deliverability';
import { EmailView, ProjectSession, useSession } from '../support/session';
import { eventually } from '../support/wait';

type ListItem = Omit<EmailView, 'events'>;

describe('emails API: GET /v1/emails and /v1/emails/:id', () => {
  const s = useSession({ PUBLIC_URL: 'https://mail.example.test', DOMAIN_VERIFICATION: 'off' });
  let other: ProjectSession;
  const send = async (p: ProjectSession, to: string, extra: Record<string, unknown> = {}): Promise<string> => {
    const res = await p.api.post('/v1/send', { to, from: 'hello@acme.test', subject: 'Hi {{email}}', body: '<p>Hi</p>', ...extra }).expect(200);
    return res.body.data.emails[0].email as string;
  };

  beforeAll(async () => {
    other = await s.newProject('Emails B');
  });

  it('shows a delivered email with its fields and events, opens included', async () => {
    const id = await send(s, 'ann@example.com', { body: '<html><body><p>Hi</p></body></html>' });
    const delivered = await s.read.emailSettled(id, ['delivered']);
    expect(delivered).toMatchObject({
      id,
      status: 'delivered',
      type: 'TRANSACTIONAL',
      from: 'hello@acme.test',
      to: 'ann@example.com',
      subject: 'Hi ann@example.com',
      campaignId: null,
      templateId: null,
      contactId: expect.stringMatching(/^cnt_/),
      workflowExecutionId: null,
      error: null,
      skipReason: null,
      attempts: 1,
      openCount: 0,
      openedAt: null,
    });
    expect(Date.parse(delivered.sentAt!)).toBeGreaterThanOrEqual(Date.parse(delivered.createdAt));
    expect(delivered.deliveredAt).not.toBeNull();
    expect(delivered.events.map((e) => e.name)).toEqual(['email.sent', 'email.delivery']);
    expect(delivered.events[0].data).toMatchObject({ emailId: id, subject: 'Hi ann@example.com', from: 'hello@acme.test' });

    const message = await outboxMessage(s.app, id);
    const pixel = (message.parsed.html as string).match(/src="([^"]*\/t\/o\/[^"]+\.gif)"/);
    expect(pixel).not.toBeNull();
    await s.anonymous.get(pathOf(pixel![1])).expect(200);
    const opened = (await s.read.email(id))!;
    expect(opened.openCount).toBe(1);
    expect(opened.openedAt).not.toBeNull();
    expect(opened.events.map((e) => e.name)).toEqual(['email.sent', 'email.delivery', 'email.open']);
    const times = opened.events.map((e) => e.createdAt);
    expect([...times].sort()).toEqual(times);
  });

  it("names the workflow execution whose SEND_EMAIL step queued the email", async () => {
    const template = await s.api.post('/templates', { name: 'Welcome', subject: 'Welcome', body: '<p>Hi</p>', from: 'hello@acme.test', type: 'TRANSACTIONAL' }).expect(201);
    const wf = await s.api.post('/workflows', { name: 'Onboarding', eventName: 'signed.up' }).expect(201);
    const sendStep = await s.api.post(`/workflows/${wf.body.id as string}/steps`, { type: 'SEND_EMAIL', config: { templateId: template.body.id } }).expect(201);
    await s.api.post(`/workflows/${wf.body.id as string}/transitions`, { fromStepId: wf.body.steps[0].id, toStepId: sendStep.body.id }).expect(201);
    await s.api.patch(`/workflows/${wf.body.id as string}`, { enabled: true }).expect(200);
    await s.api.post('/v1/track', { email: 'flow@example.com', event: 'signed.up' }).expect(200);
    const execution = await eventually(async () => {
      const res = await s.api.get(`/workflows/${wf.body.id as string}/executions`).expect(200);
      const done = await s.api.get(`/workflows/${wf.body.id as string}/executions/${res.body.data[0].id as string}`).expect(200);
      expect(done.body.status).toBe('COMPLETED');
      return done.body;
    });
    const emailId = execution.steps[1].output.emailId as string;
    expect(await s.read.emailSettled(emailId)).toMatchObject({ workflowExecutionId: execution.id, templateId: template.body.id, to: 'flow@example.com' });
  });

  it('reads the same with the dashboard session', async () => {
    const id = await send(s, 'dash@example.com');
    await s.read.emailSettled(id);
    const res = await s.dashboard.get(`/v1/emails/${id}`).set('X-Project-Id', s.project.id).expect(200);
    expect(res.body.id).toBe(id);
    const list = await s.dashboard.get('/v1/emails').set('X-Project-Id', s.project.id).expect(200);
    expect(list.body.data.map((e: ListItem) => e.id)).toContain(id);
  });

  it("answers another project's email, a malformed id and an unknown one with 404", async () => {
    const id = await send(s, 'private@example.com');
    for (const path of [`/v1/emails/${id}`, `/v1/emails/${randomUUID()}`, '/v1/emails/not-a-uuid']) {
      const res = await other.api.get(path).expect(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await other.api.get('/v1/emails').expect(200)).body).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
    await s.anonymous.get(`/v1/emails/${id}`).expect(401);
    await s.publicApi.get(`/v1/emails/${id}`).expect(401);
  });

  it('filters by contact, status and campaign; pages newest first with total on the first page', async () => {
    const p = await s.newProject('Emails paging');
    const ids: string[] = [];
    for (const to of ['a@example.com', 'b@example.com', 'c@example.com', 'a@example.com', 'd@example.com']) ids.push(await send(p, to));
    for (const id of ids) await p.read.emailSettled(id);

    const first = await p.api.get('/v1/emails', { limit: 2 }).expect(200);
    expect(first.body).toMatchObject({ hasMore: true, total: 5, cursor: expect.any(String) });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0]).not.toHaveProperty('events');
    const seen: ListItem[] = [...first.body.data];
    let cursor: string | null = first.body.cursor;
    while (cursor) {
      const page = await p.api.get('/v1/emails', { limit: 2, cursor }).expect(200);
      expect(page.body.total).toBe(0);
      seen.push(...page.body.data);
      cursor = page.body.hasMore ? page.body.cursor : null;
    }
    expect(seen.map((e) => e.id).sort()).toEqual([...ids].sort());
    const created = seen.map((e) => e.createdAt);
    expect([...created].sort().reverse()).toEqual(created);

    const a = (await p.read.contactByEmail('a@example.com'))!;
    const ofA = await p.api.get('/v1/emails', { contactId: a.id }).expect(200);
    expect(ofA.body.total).toBe(2);
    expect(ofA.body.data.map((e: ListItem) => e.id).sort()).toEqual([ids[0], ids[3]].sort());
    expect((await p.api.get('/v1/emails', { status: 'delivered' }).expect(200)).body.total).toBe(5);
    expect((await p.api.get('/v1/emails', { status: 'bounced' }).expect(200)).body).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
    // Another project's contact filters to nothing.
    expect((await other.api.get('/v1/emails', { contactId: a.id }).expect(200)).body.total).toBe(0);

    await p.api.post('/contacts', { email: 'camp@example.com' }).expect(201);
    // /v1/send created its contacts unsubscribed: the campaign (audience ALL) sends to a and camp and skips b, c and d.
    await p.api.patch(`/contacts/${a.id}`, { subscribed: true }).expect(200);
    const campaign = await p.api.post('/campaigns', { name: 'C', subject: 'C', body: '<p>C</p>', from: 'news@acme.test', audienceType: 'ALL' }).expect(201);
    const campaignId = campaign.body.data.id as string;
    await p.api.post(`/campaigns/${campaignId}/send`).expect(200);
    const ofCampaign = await eventually(async () => {
      const res = await p.api.get('/v1/emails', { campaignId }).expect(200);
      expect(res.body.data.map((e: ListItem) => e.status).sort()).toEqual(['delivered', 'delivered', 'skipped', 'skipped', 'skipped']);
      return res.body.data as ListItem[];
    }, 30_000);
    const byStatus = (status: string) => ofCampaign.filter((e) => e.status === status);
    expect(byStatus('delivered').map((e) => e.to).sort()).toEqual(['a@example.com', 'camp@example.com']);
    const skipped = byStatus('skipped').sort((x, y) => x.to.localeCompare(y.to));
    expect(skipped.map((e) => [e.to, e.skipReason, e.error, e.sentAt])).toEqual(['b@example.com', 'c@example.com', 'd@example.com'].map((to) => [to, 'unsubscribed', null, null]));
    expect(ofCampaign.every((e) => e.campaignId === campaignId && e.type === 'MARKETING')).toBe(true);
    expect((await p.api.get('/v1/emails', { campaignId, status: 'delivered', contactId: a.id }).expect(200)).body.total).toBe(1);
    expect((await p.api.get('/v1/emails', { campaignId, status: 'skipped' }).expect(200)).body.total).toBe(3);
    expect((await other.api.get('/v1/emails', { campaignId }).expect(200)).body.total).toBe(0);
  });

  it('refuses bad filters with 422 naming the parameter, a bad cursor with 400, and clamps limit', async () => {
    const bad = async (query: Record<string, string>, field: string) => {
      const res = await s.api.get('/v1/emails', query).expect(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    };
    await bad({ status: 'lost' }, 'status');
    await bad({ status: 'DELIVERED' }, 'status');
    await bad({ campaignId: 'nope' }, 'campaignId');
    await bad({ contactId: 'cnt_xyz' }, 'contactId');
    await bad({ limit: '0' }, 'limit');
    await bad({ limit: 'ten' }, 'limit');
    await s.api.get('/v1/emails', { cursor: 'not-a-cursor' }).expect(400);
    const res = await s.api.get('/v1/emails', { limit: '99999999999999999999' }).expect(200);
    expect(res.body.data.length).toBeLessThanOrEqual(100);
  });
});
