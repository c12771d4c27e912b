import { apiClient, ProjectSession, sessionHeaders, useFixture, useSession, waitFor } from '../support/session';
import { pathOf } from '../support/deliverability';
import { SmtpReceiver } from '../support/smtp-receiver';

/*
 * A sent campaign's results (docs/campaign-results.md): recipients with their status, per-link
 * clicks, opens and clicks over time. White-box only to arrange what no endpoint does (a
 * suppression, a contact with an invalid address); opens and clicks go through the tracking routes.
 */
describe('campaign results', () => {
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'off', PUBLIC_URL: 'https://mail.example.test' }));
  const READERS = Array.from({ length: 12 }, (_, i) => `reader${String(i).padStart(2, '0')}@example.com`);
  const statsKeys = {
    sent: 'sentCount',
    delivered: 'deliveredCount',
    opened: 'openedCount',
    clicked: 'clickedCount',
    bounced: 'bouncedCount',
    complained: 'complainedCount',
    unsubscribed: 'unsubscribedCount',
    skipped: 'skippedCount',
    failed: 'failedCount',
    uncertain: 'uncertainCount',
  } as const;

  let p: ProjectSession;
  let id: string;
  const messageTo = (to: string) => smtp.messages.find((m) => m.envelope.to.includes(to))!;
  const clickLinks = (to: string) => [...(messageTo(to).parsed!.html as string).matchAll(/href="([^"]*\/t\/c\/[^"]+)"/g)].map((m) => pathOf(m[1]));
  const pixel = (to: string) => pathOf(/src="([^"]*\/t\/o\/[^"]+\.gif)"/.exec(messageTo(to).parsed!.html as string)![1]);
  const recipients = async (query: Record<string, unknown> = {}) => (await p.api.get(`/campaigns/${id}/recipients`, query).expect(200)).body;
  const stats = async () => (await p.api.get(`/campaigns/${id}/stats`).expect(200)).body;

  beforeAll(async () => {
    p = await s.newProject();
    const contact = (email: string, extra: Record<string, unknown> = {}) => p.api.post('/contacts', { email, subscribed: true, ...extra }).expect((r) => expect([200, 201]).toContain(r.status));
    for (const email of ['ann@example.com', 'bob@example.com', 'cat@example.com', 'dan@example.com', ...READERS]) await contact(email);
    await contact('gone@example.com', { subscribed: false });
    await contact('blocked@example.com');
    // Arranged in SQL: no endpoint adds a suppression (a bounce does, through the SNS webhook).
    await s.db.query(`INSERT INTO suppressions (project_id, email, reason, source) VALUES ($1, 'blocked@example.com', 'bounce', 'api')`, [p.project.id]);
    // Arranged in SQL: a contact whose address cannot receive mail, which the API refuses to write.
    await s.db.query(`INSERT INTO contacts (project_id, email, subscribed) VALUES ($1, 'broken-address', true)`, [p.project.id]);
    smtp.refuse('dan@example.com', 550);
    const created = await p.api
      .post('/campaigns', {
        name: 'Results',
        subject: 'News',
        body: '<p>Hi <a href="https://example.com/a">A</a> <a href="https://example.com/b">B</a></p>',
        from: 'news@example.com',
        audienceType: 'ALL',
      })
      .expect(201);
    id = created.body.data.id;
    await p.api.post(`/campaigns/${id}/send`).expect(200);
    await waitFor(async () => ((await p.api.get(`/campaigns/${id}`).expect(200)).body.status === 'SENT' ? true : undefined), 30_000, 100);
    await waitFor(async () => ((await stats()).bouncedCount === 1 ? true : undefined), 10_000, 100);
    // Ann opens and clicks A twice and B once; Bob clicks A without loading images; Cat opens twice.
    const [annA, annB] = clickLinks('ann@example.com');
    await s.anonymous.get(pixel('ann@example.com')).expect(200);
    await s.anonymous.get(annA).expect(302);
    await s.anonymous.get(annA).expect(302);
    await s.anonymous.get(annB).expect(302);
    await s.anonymous.get(clickLinks('bob@example.com')[0]).expect(302);
    await s.anonymous.get(pixel('cat@example.com')).expect(200);
    await s.anonymous.get(pixel('cat@example.com')).expect(200);
  }, 60_000);

  it('gives each recipient one status, skipped ones with their reason, and the times', async () => {
    const page = await recipients({ limit: 100 });
    expect(page).toMatchObject({ hasMore: false, cursor: null, total: 19 });
    const by = Object.fromEntries(page.data.map((r: { email: string }) => [r.email, r]));
    expect(by['ann@example.com']).toMatchObject({ status: 'clicked', skipReason: null, openCount: 1, clickCount: 3 });
    expect(by['ann@example.com'].sentAt).toBeTruthy();
    expect(by['ann@example.com'].openedAt).toBeTruthy();
    expect(by['ann@example.com'].clickedAt).toBeTruthy();
    expect(by['ann@example.com'].contactId).toBe((await p.read.contactByEmail('ann@example.com'))!.id);
    expect(by['bob@example.com']).toMatchObject({ status: 'clicked', openedAt: null, clickCount: 1 });
    expect(by['cat@example.com']).toMatchObject({ status: 'opened', clickedAt: null, openCount: 2 });
    expect(by['dan@example.com']).toMatchObject({ status: 'bounced', openedAt: null });
    expect(by['dan@example.com'].bouncedAt).toBeTruthy();
    expect(by['reader00@example.com']).toMatchObject({ status: 'delivered' });
    expect(by['gone@example.com']).toMatchObject({ status: 'skipped', skipReason: 'unsubscribed', sentAt: null });
    expect(by['blocked@example.com']).toMatchObject({ status: 'skipped', skipReason: 'suppressed' });
    expect(by['broken-address']).toMatchObject({ status: 'skipped', skipReason: 'invalid_email' });
    // Ordered by address.
    const emails = page.data.map((r: { email: string }) => r.email);
    expect(emails).toEqual([...emails].sort());
  });

  it('filters by status, each filter agreeing with its stats counter', async () => {
    expect((await recipients({ status: 'clicked' })).data.map((r: { email: string }) => r.email)).toEqual(['ann@example.com', 'bob@example.com']);
    expect((await recipients({ status: 'opened' })).data.map((r: { email: string }) => r.email)).toEqual(['ann@example.com', 'cat@example.com']);
    expect((await recipients({ status: 'bounced' })).data.map((r: { email: string }) => r.email)).toEqual(['dan@example.com']);
    // Bob unsubscribes after the campaign reached him: he counts as unsubscribed, and so does his status.
    const bob = (await p.read.contactByEmail('bob@example.com'))!;
    await p.api.patch(`/contacts/${bob.id}`, { subscribed: false }).expect(200);
    expect((await recipients({ status: 'unsubscribed' })).data.map((r: { email: string; status: string }) => [r.email, r.status])).toEqual(
      expect.arrayContaining([['bob@example.com', 'unsubscribed']]),
    );
    const counters = await stats();
    for (const [filter, key] of Object.entries(statsKeys)) {
      expect([filter, (await recipients({ status: filter })).total]).toEqual([filter, counters[key]]);
    }
    expect(counters).toMatchObject({ clickedCount: 2, openedCount: 2, bouncedCount: 1, skippedCount: 3 });
  });

  it('searches by address and pages with a cursor', async () => {
    expect((await recipients({ search: 'CAT@' })).data.map((r: { email: string }) => r.email)).toEqual(['cat@example.com']);
    expect((await recipients({ search: '%' })).total).toBe(0);
    const seen: string[] = [];
    let page = await recipients({ search: 'reader', limit: 5 });
    expect(page.total).toBe(12);
    for (;;) {
      seen.push(...page.data.map((r: { email: string }) => r.email));
      if (!page.hasMore) break;
      page = await recipients({ search: 'reader', limit: 5, cursor: page.cursor });
      expect(page.total).toBe(0);
    }
    expect(seen).toEqual(READERS);
    await p.api.get(`/campaigns/${id}/recipients`, { cursor: 'not-a-cursor!' }).expect(400);
  });

  it('counts unique and total clicks per link', async () => {
    const links = (await p.api.get(`/campaigns/${id}/links`).expect(200)).body;
    expect(links).toEqual({
      data: [
        { url: 'https://example.com/a', uniqueClicks: 2, totalClicks: 3 },
        { url: 'https://example.com/b', uniqueClicks: 1, totalClicks: 1 },
      ],
    });
  });

  it('buckets unique opens and clicks over time, summing to the counters', async () => {
    const campaign = (await p.api.get(`/campaigns/${id}`).expect(200)).body;
    for (const interval of ['hour', 'day']) {
      const timeline = (await p.api.get(`/campaigns/${id}/timeline`, { interval }).expect(200)).body;
      expect(timeline.interval).toBe(interval);
      expect(timeline.sentAt).toBe(campaign.sentAt);
      expect(timeline.data.length).toBeGreaterThanOrEqual(1);
      const sum = (k: 'opens' | 'clicks') => timeline.data.reduce((a: number, b: Record<string, number>) => a + b[k], 0);
      expect([sum('opens'), sum('clicks')]).toEqual([2, 2]);
      const start = new Date(timeline.data[0].time);
      expect(start.getUTCMinutes()).toBe(0);
      if (interval === 'day') expect(start.getUTCHours()).toBe(0);
    }
    expect((await p.api.get(`/campaigns/${id}/timeline`).expect(200)).body.interval).toBe('hour');
  });

  it('answers the dashboard session with X-Project-Id, and 404 to another project', async () => {
    const dashboard = apiClient(s.http, { ...sessionHeaders(p.project.cookie), 'X-Project-Id': p.project.id });
    expect((await dashboard.get(`/campaigns/${id}/recipients`, { status: 'clicked' }).expect(200)).body.total).toBe(2);
    const other = await s.newProject();
    for (const path of ['recipients', 'links', 'timeline']) {
      await other.api.get(`/campaigns/${id}/${path}`).expect(404);
      await p.api.get(`/campaigns/00000000-0000-4000-8000-000000000000/${path}`).expect(404);
    }
  });

  it('answers 422 naming each bad query parameter', async () => {
    const res = await p.api.get(`/campaigns/${id}/recipients`, { status: 'read', limit: 'many' }).expect(422);
    const fields = res.body.error.errors.map((e: { field: string }) => e.field);
    expect(fields.sort()).toEqual(['limit', 'status']);
    await p.api.get(`/campaigns/${id}/recipients`, { limit: '0' }).expect(422);
    const timeline = await p.api.get(`/campaigns/${id}/timeline`, { interval: 'week' }).expect(422);
    expect(timeline.body.error.errors.map((e: { field: string }) => e.field)).toEqual(['interval']);
  });

  it('lists nothing for a DRAFT campaign', async () => {
    const draft = (await p.api.post('/campaigns', { name: 'D', subject: 'S', body: '<p>x</p>', from: 'news@example.com', audienceType: 'ALL' }).expect(201)).body.data.id;
    expect(await (await p.api.get(`/campaigns/${draft}/recipients`).expect(200)).body).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
    expect((await p.api.get(`/campaigns/${draft}/links`).expect(200)).body).toEqual({ data: [] });
    expect((await p.api.get(`/campaigns/${draft}/timeline`).expect(200)).body).toMatchObject({ sentAt: null, data: [] });
  });
});
