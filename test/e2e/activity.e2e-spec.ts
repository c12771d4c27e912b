import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { ProjectSession, useSession, waitFor } from '../support/session';

const get = (p: ProjectSession, path: string) => p.api.get(path);

describe('activity feed and stats', () => {
  const s = useSession({}, { projectName: 'Activity A' });
  let a: ProjectSession;
  let b: ProjectSession;
  const track = (p: ProjectSession, email: string, event: string, data: Record<string, unknown> = {}) => p.publicApi.post('/v1/track', { email, event, data }).expect(200);
  const send = (p: ProjectSession, to: string) => p.api.post('/v1/send', { to, from: 'hello@acme.test', subject: 'Welcome', body: '<p>Hi</p>' }).expect(200);

  beforeAll(async () => {
    a = s;
    b = await s.newProject('Activity B');
    await track(a, 'ann@example.com', 'signed-up', { plan: 'pro' });
    await track(a, 'bob@example.com', 'signed-up');
    await track(a, 'ann@example.com', 'purchased');
    await send(a, 'ann@example.com');
    await track(b, 'zed@example.com', 'b-only');
    // The outbox delivers at once: email.sent and email.delivery follow.
    await waitFor(async () => ((await get(a, '/activity?types=email.delivery').expect(200)).body.data.length === 1 ? true : undefined));
  });

  it('lists events and the email lifecycle newest first, one project only', async () => {
    const res = await get(a, '/activity').expect(200);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.cursor).toBeNull();
    const types = res.body.data.map((i: { type: string }) => i.type);
    expect(types.sort()).toEqual(['email.delivery', 'email.sent', 'event', 'event', 'event']);
    const times = res.body.data.map((i: { createdAt: string }) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const sent = res.body.data.find((i: { type: string }) => i.type === 'email.sent');
    expect(sent).toMatchObject({ subject: 'Welcome', emailId: expect.any(String), contact: { id: expect.stringMatching(/^cnt_/), email: 'ann@example.com' } });
    const signup = res.body.data.find((i: { eventName?: string; contact: { email: string } }) => i.eventName === 'signed-up' && i.contact.email === 'ann@example.com');
    expect(signup).toMatchObject({ type: 'event', data: { plan: 'pro' } });
    expect(JSON.stringify(res.body)).not.toContain('b-only');
    const other = await get(b, '/activity').expect(200);
    expect(other.body.data.map((i: { eventName?: string }) => i.eventName)).toEqual(['b-only']);
  });

  it('filters by types and contact, and pages with a cursor', async () => {
    const events = await get(a, '/activity?types=event').expect(200);
    expect(events.body.data).toHaveLength(3);
    const mixed = await get(a, '/activity?types=email.sent,event').expect(200);
    expect(mixed.body.data).toHaveLength(4);
    const ann = (await get(a, '/activity?types=event').expect(200)).body.data.find((i: { contact: { email: string } }) => i.contact.email === 'ann@example.com').contact.id;
    const annOnly = await get(a, `/activity?contactId=${ann}`).expect(200);
    expect(annOnly.body.data.every((i: { contact: { id: string } }) => i.contact.id === ann)).toBe(true);
    expect(annOnly.body.data).toHaveLength(4);
    expect((await get(b, `/activity?contactId=${ann}`).expect(200)).body.data).toEqual([]);
    expect((await get(a, `/activity?campaignId=${randomUUID()}`).expect(200)).body.data).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Response = await get(a, `/activity?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((i: { id: string }) => i.id));
      cursor = page.body.cursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });

  it('carries total on the first page, for every filter, and 0 on later pages', async () => {
    const total = async (query: string) => (await get(a, `/activity${query}`).expect(200)).body.total;
    expect(await total('')).toBe(5);
    expect(await total('?types=event')).toBe(3);
    expect(await total('?types=email.sent,event')).toBe(4);
    expect(await total('?types=email.delivery')).toBe(1);
    const ann = (await get(a, '/activity?types=event').expect(200)).body.data.find((i: { contact: { email: string } }) => i.contact.email === 'ann@example.com').contact.id;
    expect(await total(`?contactId=${ann}`)).toBe(4);
    expect(await total(`?contactId=${ann}&types=event`)).toBe(2);
    expect(await total(`?campaignId=${randomUUID()}`)).toBe(0);
    expect(await total('?contactId=cnt_nope')).toBe(0);
    expect((await get(b, '/activity').expect(200)).body.total).toBe(1);
    expect((await get(b, `/activity?contactId=${ann}`).expect(200)).body.total).toBe(0);
    const first = (await get(a, '/activity?limit=2').expect(200)).body;
    expect(first).toMatchObject({ total: 5, hasMore: true });
    const second = (await get(a, `/activity?limit=2&cursor=${first.cursor}`).expect(200)).body;
    expect(second.total).toBe(0);
    expect(second.data).toHaveLength(2);
  });

  it('answers bad input with 400', async () => {
    expect((await get(a, '/activity?types=email.nope').expect(400)).body.error.code).toBe('BAD_REQUEST');
    await get(a, '/activity?cursor=garbage!').expect(400);
    await get(a, '/activity/stats?from=yesterday').expect(400);
    await get(a, '/activity/stats?from=2026-13-45').expect(400);
    await get(a, '/activity/stats?from=2026-02-01&to=2026-01-01').expect(400);
    await get(a, '/activity/recent-count?minutes=-5').expect(422);
  });

  it('counts stats, recent activity and types per project', async () => {
    expect((await get(a, '/activity/stats').expect(200)).body).toEqual({ sent: 1, delivered: 1, opened: 0, clicked: 0, bounced: 0, complained: 0, received: 0, events: 3 });
    expect((await get(b, '/activity/stats').expect(200)).body).toMatchObject({ sent: 0, events: 1 });
    const past = await get(a, '/activity/stats?from=2020-01-01&to=2020-02-01').expect(200);
    expect(past.body.events).toBe(0);
    expect((await get(a, '/activity/recent-count?minutes=10').expect(200)).body).toEqual({ count: 5 });
    expect((await get(b, '/activity/recent-count').expect(200)).body).toEqual({ count: 1 });
    expect((await get(a, '/activity/types').expect(200)).body).toEqual({ types: ['email.sent', 'email.delivery', 'event'] });
    expect((await get(b, '/activity/types').expect(200)).body).toEqual({ types: ['event'] });
  });

  it('keeps the counters exact when events are deleted', async () => {
    await a.api.delete('/events/purchased').expect(204);
    expect((await get(a, '/activity/stats').expect(200)).body.events).toBe(2);
    expect((await get(a, '/activity').expect(200)).body.total).toBe(4);
    expect((await get(a, '/activity?types=event').expect(200)).body.total).toBe(2);
    expect((await get(a, '/analytics/top-events').expect(200)).body).toEqual({ data: [{ name: 'signed-up', count: 2 }] });
  });

  it('lists upcoming campaigns and executions (none here)', async () => {
    expect((await get(a, '/activity/upcoming').expect(200)).body).toEqual({ campaigns: [], executions: [] });
  });

  it('needs the secret key', async () => {
    await s.anonymous.get('/activity').expect(401);
    await a.publicApi.get('/activity/stats').expect(401);
    await a.publicApi.get('/analytics/timeseries').expect(401);
  });
});

describe('activity: upcoming items and campaign filters', () => {
  const s = useSession({}, { projectName: 'Upcoming A' });
  let contactId: string;

  beforeAll(async () => {
    contactId = (await s.api.post('/contacts', { email: 'wait@example.com' }).expect(201)).body.id;
    await s.api.post('/contacts', { email: 'other@example.com' }).expect(201);
  });

  const campaign = async (name: string) =>
    (await s.api.post('/campaigns', { name, subject: `${name} subject`, body: '<p>Hi</p>', from: 'news@acme.test', audienceType: 'ALL', type: 'TRANSACTIONAL' }).expect(201)).body.data
      .id as string;

  const waitingExecution = async (name: string, step: { type: string; config: Record<string, unknown> }) => {
    const wf = (await s.api.post('/workflows', { name, eventName: `${name}.start` }).expect(201)).body;
    const next = (await s.api.post(`/workflows/${wf.id}/steps`, step).expect(201)).body.id;
    await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: wf.steps[0].id, toStepId: next }).expect(201);
    const ex = (await s.api.post(`/workflows/${wf.id}/executions`, { contactId }).expect(201)).body.id as string;
    await waitFor(async () => ((await s.api.get(`/workflows/${wf.id}/executions/${ex}`).expect(200)).body.status === 'WAITING' ? true : undefined));
    return { workflowId: wf.id as string, id: ex };
  };

  it('lists scheduled campaigns {id, name, subject, scheduledFor} and waiting executions {id, workflowId, workflowName, contact, dueAt}', async () => {
    const id = await campaign('Later');
    const when = new Date(Date.now() + 86_400_000).toISOString();
    await s.api.post(`/campaigns/${id}/send`, { scheduledFor: when }).expect(200);
    const delayed = await waitingExecution('Delayed', { type: 'DELAY', config: { amount: 2, unit: 'days' } });
    const waiting = await waitingExecution('Waiting', { type: 'WAIT_FOR_EVENT', config: { eventName: 'never' } });
    const res = (await s.api.get('/activity/upcoming').expect(200)).body;
    expect(res.campaigns).toEqual([{ id, name: 'Later', subject: 'Later subject', scheduledFor: when }]);
    const contact = { id: contactId, email: 'wait@example.com' };
    expect(res.executions).toEqual([
      { id: delayed.id, workflowId: delayed.workflowId, workflowName: 'Delayed', contact, dueAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) },
      { id: waiting.id, workflowId: waiting.workflowId, workflowName: 'Waiting', contact, dueAt: null },
    ]);
    const due = Date.parse(res.executions[0].dueAt) - Date.now();
    expect(due).toBeGreaterThan(2 * 86_400_000 - 120_000);
    expect(due).toBeLessThanOrEqual(2 * 86_400_000);
    const other = await s.newProject('Upcoming B');
    expect((await other.api.get('/activity/upcoming').expect(200)).body).toEqual({ campaigns: [], executions: [] });
  });

  it("counts a campaign's activity, alone or with a type or contact, in total", async () => {
    const id = await campaign('Now');
    await s.api.post(`/campaigns/${id}/send`).expect(200);
    await waitFor(async () => ((await s.api.get(`/activity?campaignId=${id}&types=email.delivery`).expect(200)).body.data.length === 2 ? true : undefined));
    const page = (await s.api.get(`/activity?campaignId=${id}`).expect(200)).body;
    expect(page.data).toHaveLength(4);
    expect(page.total).toBe(4);
    expect((await s.api.get(`/activity?campaignId=${id}&types=email.sent`).expect(200)).body.total).toBe(2);
    expect((await s.api.get(`/activity?campaignId=${id}&contactId=${contactId}`).expect(200)).body.total).toBe(2);
    expect((await s.api.get(`/activity?campaignId=${id.toUpperCase()}&limit=1`).expect(200)).body).toMatchObject({ total: 4, hasMore: true });
  });
});

// White-box arrangement only: campaign emails and events spread over past days, which the API
// cannot backdate (nor write emails without sending them). Every read goes through the API.
describe('analytics', () => {
  const s = useSession({}, { projectName: 'Analytics A' });
  let a: ProjectSession;
  let b: ProjectSession;
  const campaignA = randomUUID();
  const campaignB = randomUUID();

  beforeAll(async () => {
    a = s;
    b = await s.newProject('Analytics B');
    // Campaign emails as the campaign engine writes them (only campaign_id matters here), arranged in SQL:
    // no endpoint writes opened campaign emails without a send, nor backdates an event (below).
    const insert = (p: ProjectSession, campaignId: string, n: number, opened: number) =>
      s.db.query(
        `INSERT INTO emails (project_id, campaign_id, type, from_address, to_address, status, sent_at, delivered_at, opened_at)
         SELECT $1, $2, 'MARKETING', 'news@acme.test', 'r' || i || '@example.com', 'delivered', now(), now(), CASE WHEN i <= $4 THEN now() END
         FROM generate_series(1, $3) i`,
        [p.project.id, campaignId, n, opened],
      );
    await insert(a, campaignA, 4, 3);
    await insert(b, campaignB, 9, 9);
    // One of each per UTC day for today and the two days before, never in the future (the
    // default range ends now, so an event at 01:00 today would be out of range before 01:00).
    // Arranged in SQL: no endpoint backdates an event.
    await s.db.query(
      `INSERT INTO events (project_id, name, data, created_at)
       SELECT $1, n, '{}', now() - (d || ' days')::interval
       FROM unnest(ARRAY['email.sent', 'email.delivery', 'email.open', 'clicked-buy']) n, generate_series(0, 2) d`,
      [a.project.id],
    );
  });

  it('returns every day bucket of the last 30 days, zeros included', async () => {
    const res = await get(a, '/analytics/timeseries').expect(200);
    expect(res.body.interval).toBe('day');
    expect(res.body.data).toHaveLength(31);
    const days = res.body.data.map((d: { date: string }) => Date.parse(d.date));
    for (let i = 1; i < days.length; i++) expect(days[i] - days[i - 1]).toBe(24 * 3600_000);
    expect(res.body.data[0]).toEqual({ date: expect.stringMatching(/T00:00:00\.000Z$/), sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0 });
    expect(res.body.data.slice(-3)).toEqual(res.body.data.slice(-3).map((d: { date: string }) => ({ date: d.date, sent: 1, delivered: 1, opened: 1, clicked: 0, bounced: 0 })));
    expect((await get(b, '/analytics/timeseries').expect(200)).body.data.every((d: { sent: number }) => d.sent === 0)).toBe(true);
  });

  it('returns hour buckets for a given range', async () => {
    const to = new Date();
    const from = new Date(to.getTime() - 5 * 3600_000);
    const res = await get(a, `/analytics/timeseries?interval=hour&from=${from.toISOString()}&to=${to.toISOString()}`).expect(200);
    expect(res.body.interval).toBe('hour');
    expect(res.body.data).toHaveLength(6);
  });

  it('refuses invalid intervals, dates and ranges with 400', async () => {
    await get(a, '/analytics/timeseries?interval=week').expect(400);
    await get(a, '/analytics/timeseries?from=not-a-date').expect(400);
    await get(a, '/analytics/timeseries?from=2026-03-01&to=2026-02-01').expect(400);
    await get(a, '/analytics/timeseries?interval=hour&from=2024-01-01&to=2025-06-01').expect(400);
    await get(a, '/analytics/timeseries?interval=day&from=2024-01-01&to=2025-06-01').expect(200);
    await get(a, '/analytics/top-campaigns?metric=revenue').expect(400);
    await get(a, '/analytics/top-campaigns?metric=toString').expect(400);
  });

  it('ranks campaigns of the project only', async () => {
    expect((await get(a, '/analytics/top-campaigns?metric=opens').expect(200)).body).toEqual({ data: [{ id: campaignA, name: null, value: 3 }] });
    expect((await get(a, '/analytics/top-campaigns?metric=sent').expect(200)).body.data[0].value).toBe(4);
    expect((await get(b, '/analytics/top-campaigns').expect(200)).body.data).toEqual([{ id: campaignB, name: null, value: 9 }]);
    const stats = await get(a, '/analytics/campaign-stats').expect(200);
    expect(stats.body.data).toEqual([
      expect.objectContaining({ id: campaignA, totalRecipients: 4, sentCount: 4, deliveredCount: 4, openedCount: 3, clickedCount: 0, openRate: 0.75, clickRate: 0, bounceRate: 0 }),
    ]);
  });

  it('ranks tracked event names, not the email lifecycle', async () => {
    expect((await get(a, '/analytics/top-events').expect(200)).body).toEqual({ data: [{ name: 'clicked-buy', count: 3 }] });
    expect((await get(b, '/analytics/top-events').expect(200)).body).toEqual({ data: [] });
  });
});
