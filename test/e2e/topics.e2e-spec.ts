import { pathOf } from '../support/deliverability';
import { SmtpReceiver } from '../support/smtp-receiver';
import { ApiClient, ProjectSession, useFixture, useSession, waitFor } from '../support/session';

/**
 * Topics and snooze (docs/topics.md) through HTTP and SMTP: the topic
 * resource, contacts' choices on every write path, effective membership (segment filters,
 * campaign audiences), the topic's one-click List-Unsubscribe, and snooze for campaigns and
 * workflow steps. White-box only where the API refuses the arrangement (a snooze that has ended).
 */
describe('topics', () => {
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'off' }));

  const topic = async (api: ApiClient, body: Record<string, unknown>) => (await api.post('/topics', body).expect(201)).body as { id: string; slug: string };
  const contact = async (api: ApiClient, body: Record<string, unknown>) => {
    const res = await api.post('/contacts', body);
    expect([200, 201]).toContain(res.status);
    return res.body as { id: string; topics: Record<string, boolean>; snoozedUntil: string | null };
  };
  const fieldsOf = (res: { body: { error: { errors: Array<{ field: string }> } } }) => res.body.error.errors.map((e) => e.field);
  const campaign = async (api: ApiClient, over: Record<string, unknown> = {}) =>
    (await api.post('/campaigns', { name: 'News', subject: 'News for {{email}}', body: '<p>News</p>', from: 'news@example.com', audienceType: 'ALL', ...over }).expect(201)).body.data as { id: string };
  const sent = async (p: ProjectSession, id: string) => {
    await p.api.post(`/campaigns/${id}/send`).expect(200);
    await waitFor(async () => ((await p.api.get(`/campaigns/${id}`).expect(200)).body.status === 'SENT' ? true : undefined), 30_000, 100);
    return (await p.api.get(`/campaigns/${id}/stats`).expect(200)).body as { sentCount: number; skipped: Record<string, number>; totalRecipients: number };
  };
  const subjectsTo = (to: string) => smtp.messages.filter((m) => m.envelope.to.includes(to)).map((m) => m.parsed?.subject);
  const topicEvents = async (p: ProjectSession, contactId: string) =>
    (await p.read.eventsOf(contactId))
      .filter((e) => e.name.startsWith('contact.topic.'))
      .map((e) => [e.name, e.data.topic])
      .reverse();

  describe('the resource', () => {
    it('creates with a slug derived from the name (or given), lists, reads, updates; duplicates are 409', async () => {
      const p = await s.newProject();
      const news = await topic(p.api, { name: '  Product News! ', default: 'opt_out' });
      expect(news).toEqual({
        id: expect.any(String),
        name: '  Product News! ',
        slug: 'product-news',
        description: null,
        default: 'opt_out',
        public: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const beta = await topic(p.api, { name: 'Beta programme', slug: 'beta', description: 'Early features', default: 'opt_in', public: false });
      expect(beta).toMatchObject({ slug: 'beta', description: 'Early features', default: 'opt_in', public: false });
      const dup = await p.api.post('/topics', { name: 'Product news', default: 'opt_in' }).expect(409);
      expect(dup.body.error).toMatchObject({ code: 'CONFLICT', details: { slug: 'product-news' } });
      await p.api.post('/topics', { name: 'Other', slug: 'beta', default: 'opt_in' }).expect(409);
      // Another project may use the same slug.
      await topic((await s.newProject()).api, { name: 'Product news', default: 'opt_out' });

      const list = (await p.api.get('/topics').expect(200)).body as Array<{ slug: string }>;
      expect(list.map((t) => t.slug)).toEqual(['product-news', 'beta']);
      expect((await p.api.get(`/topics/${beta.id}`).expect(200)).body.slug).toBe('beta');
      const patched = await p.api.patch(`/topics/${beta.id}`, { name: 'Beta', description: null, default: 'opt_out', public: true }).expect(200);
      expect(patched.body).toMatchObject({ name: 'Beta', slug: 'beta', description: null, default: 'opt_out', public: true });
    });

    it('refuses bad input with one 422 item per field, and a slug change', async () => {
      const p = await s.newProject();
      expect(fieldsOf(await p.api.post('/topics', { name: 'x' }).expect(422))).toEqual(['default']);
      expect(fieldsOf(await p.api.post('/topics', { default: 'opt_out' }).expect(422))).toEqual(['name']);
      const many = await p.api.post('/topics', { name: 'n'.repeat(101), default: 'sometimes', description: 'd'.repeat(501), slug: 'Not A Slug', public: 'yes' }).expect(422);
      expect(fieldsOf(many).sort()).toEqual(['default', 'description', 'name', 'public', 'slug']);
      expect(fieldsOf(await p.api.post('/topics', { name: '!!!', default: 'opt_out' }).expect(422))).toEqual(['name']);
      const t = await topic(p.api, { name: 'Fixed', default: 'opt_out' });
      expect(fieldsOf(await p.api.patch(`/topics/${t.id}`, { slug: 'other' }).expect(422))).toEqual(['slug']);
      expect(fieldsOf(await p.api.patch(`/topics/${t.id}`, { default: null }).expect(422))).toEqual(['default']);
      expect((await p.api.get('/topics').expect(200)).body).toHaveLength(1);
    });

    it("keeps projects apart: another project's topic is 404 everywhere", async () => {
      const p = await s.newProject();
      const other = await s.newProject();
      const t = await topic(p.api, { name: 'Mine', default: 'opt_out' });
      await other.api.get(`/topics/${t.id}`).expect(404);
      await other.api.patch(`/topics/${t.id}`, { name: 'x' }).expect(404);
      await other.api.del(`/topics/${t.id}`).expect(404);
      await other.api.get('/topics/not-a-uuid').expect(404);
      expect((await other.api.get('/topics').expect(200)).body).toEqual([]);
      // Nor can its slug or id be used there.
      expect(fieldsOf(await other.api.post('/contacts', { email: 'x@example.com', topics: { mine: true } }).expect(422))).toEqual(['topics.mine']);
      expect(fieldsOf(await other.api.post('/campaigns', { name: 'c', subject: 's', body: 'b', from: 'news@example.com', audienceType: 'ALL', topicId: t.id }).expect(422))).toEqual(['topicId']);
      expect((await p.api.get(`/topics/${t.id}`).expect(200)).body.name).toBe('Mine');
    });

    it('deletes (409 while a scheduled campaign targets it), and the choices of its slug go with it', async () => {
      const p = await s.newProject();
      const t = await topic(p.api, { name: 'Weekly', default: 'opt_out' });
      const c = await contact(p.api, { email: 'del@example.com', topics: { weekly: false } });
      const cam = await campaign(p.api, { topicId: t.id });
      await p.api.post(`/campaigns/${cam.id}/send`, { scheduledFor: new Date(Date.now() + 3600_000).toISOString() }).expect(200);
      const refused = await p.api.del(`/topics/${t.id}`).expect(409);
      expect(refused.body.error).toMatchObject({ code: 'CONFLICT', details: { campaigns: [{ id: cam.id, name: 'News' }] } });
      await p.api.post(`/campaigns/${cam.id}/cancel`).expect(200);
      await p.api.del(`/topics/${t.id}`).expect(204);
      await p.api.get(`/topics/${t.id}`).expect(404);
      expect((await p.api.get(`/campaigns/${cam.id}`).expect(200)).body.topicId).toBeNull();
      expect((await p.read.contact(c.id))!.topics).toEqual({});
    });
  });

  describe('contact choices', () => {
    let p: ProjectSession;
    beforeAll(async () => {
      p = await s.newProject();
      await topic(p.api, { name: 'News', default: 'opt_out' });
      await topic(p.api, { name: 'Beta', default: 'opt_in' });
    });

    it('POST and PATCH /contacts patch topics like data, with membership events; an unknown slug is a 422 that writes nothing', async () => {
      const created = await contact(p.api, { email: 'ann@example.com', topics: { beta: true } });
      expect(created).toMatchObject({ topics: { beta: true }, snoozedUntil: null });
      const bad = await p.api.post('/contacts', { email: 'new@example.com', topics: { beta: true, nope: true, gone: false } }).expect(422);
      expect(fieldsOf(bad).sort()).toEqual(['topics.gone', 'topics.nope']);
      expect(await p.read.contactByEmail('new@example.com')).toBeUndefined();
      expect(fieldsOf(await p.api.post('/contacts', { email: 'new@example.com', topics: { beta: 'yes' } }).expect(422))).toEqual(['topics.beta']);

      // news: opt_out, so choosing true changes nothing; false leaves; null removes beta's choice (opt_in: leaves).
      expect((await p.api.patch(`/contacts/${created.id}`, { topics: { news: true } }).expect(200)).body.topics).toEqual({ beta: true, news: true });
      const patched = await p.api.patch(`/contacts/${created.id}`, { topics: { news: false, beta: null }, data: { plan: 'pro' } }).expect(200);
      expect(patched.body).toMatchObject({ topics: { news: false }, data: { plan: 'pro' } });
      const refused = await p.api.patch(`/contacts/${created.id}`, { topics: { news: true, nope: false }, data: { plan: 'free' } }).expect(422);
      expect(fieldsOf(refused)).toEqual(['topics.nope']);
      expect(await p.read.contact(created.id)).toMatchObject({ topics: { news: false }, data: { plan: 'pro' } });
      // The two events of one PATCH share its transaction's timestamp: their order among themselves is not defined.
      const events = await topicEvents(p, created.id);
      expect(events[0]).toEqual(['contact.topic.subscribed', 'beta']);
      expect(events.slice(1).sort()).toEqual([
        ['contact.topic.unsubscribed', 'beta'],
        ['contact.topic.unsubscribed', 'news'],
      ]);
    });

    it('/v1/track (public key too) and /v1/send take topics; an unknown slug is a 422 that writes nothing', async () => {
      await p.publicApi.post('/v1/track', { email: 'trk@example.com', event: 'signup', topics: { beta: true, news: false } }).expect(200);
      const trk = (await p.read.contactByEmail('trk@example.com'))!;
      expect(trk.topics).toEqual({ beta: true, news: false });
      expect(await topicEvents(p, trk.id)).toEqual([['contact.topic.subscribed', 'beta']]);
      expect(fieldsOf(await p.api.post('/v1/track', { email: 'trk2@example.com', event: 'signup', topics: { nope: true } }).expect(422))).toEqual(['topics.nope']);
      expect(await p.read.contactByEmail('trk2@example.com')).toBeUndefined();
      expect(await p.read.events({ name: 'signup' })).toHaveLength(1);

      const res = await p.api.post('/v1/send', { to: 'snd@example.com', subject: 'Hi', body: '<p>Hi</p>', from: 'news@example.com', topics: { beta: true } }).expect(200);
      expect(res.body.success).toBe(true);
      expect((await p.read.contactByEmail('snd@example.com'))!.topics).toEqual({ beta: true });
      const bad = await p.api.post('/v1/send', { to: 'snd2@example.com', subject: 'Hi', body: '<p>Hi</p>', from: 'news@example.com', topics: { nope: true } }).expect(422);
      expect(fieldsOf(bad)).toEqual(['topics.nope']);
      expect(await p.read.contactByEmail('snd2@example.com')).toBeUndefined();
      expect((await p.read.emails()).filter((e) => e.to === 'snd2@example.com')).toEqual([]);
    });

    it('segment filters topics.<slug> on effective membership (opt_out: unless false; opt_in: only if true); an unknown slug is 422', async () => {
      const q = await s.newProject();
      await topic(q.api, { name: 'News', default: 'opt_out' });
      await topic(q.api, { name: 'Beta', default: 'opt_in' });
      await contact(q.api, { email: 'a@example.com' });
      await contact(q.api, { email: 'b@example.com', topics: { news: false } });
      await contact(q.api, { email: 'c@example.com', topics: { beta: true } });
      await contact(q.api, { email: 'd@example.com', topics: { beta: false, news: true } });
      const count = async (field: string, value: boolean, operator = 'equals') =>
        (await q.api.post('/segments/preview', { condition: { logic: 'AND', groups: [{ filters: [{ field, operator, value }] }] } }).expect(200)).body.memberCount;
      expect([await count('topics.news', true), await count('topics.news', false), await count('topics.beta', true), await count('topics.beta', false)]).toEqual([3, 1, 1, 3]);
      expect(await count('topics.news', true, 'notEquals')).toBe(1);
      // The contacts list filters on the same membership.
      expect((await q.api.get('/contacts', { topic: 'news' }).expect(200)).body.total).toBe(3);
      expect((await q.api.get('/contacts', { topic: 'beta' }).expect(200)).body.data.map((c: { email: string }) => c.email)).toEqual(['c@example.com']);
      expect(fieldsOf(await q.api.get('/contacts', { topic: 'nope' }).expect(422))).toEqual(['topic.nope']);
      const bad = await q.api.post('/segments', { name: 'x', condition: { logic: 'AND', groups: [{ filters: [{ field: 'topics.nope', operator: 'equals', value: true }] }] } }).expect(422);
      expect(bad.body.error.errors[0]).toMatchObject({ field: 'condition.groups[0].filters[0].field', code: 'unknown_topic' });
      const wrongValue = await q.api.post('/segments/preview', { condition: { logic: 'AND', groups: [{ filters: [{ field: 'topics.news', operator: 'contains', value: 'x' }] }] } }).expect(422);
      expect(wrongValue.body.error.errors[0].field).toBe('condition.groups[0].filters[0].operator');
    });
  });

  describe('campaigns with a topic', () => {
    it("sends to the topic's members only (the others skipped `topic`), and its one-click List-Unsubscribe leaves only the topic", async () => {
      const p = await s.newProject();
      const news = await topic(p.api, { name: 'News', default: 'opt_out' });
      await topic(p.api, { name: 'Beta', default: 'opt_in' });
      const ann = await contact(p.api, { email: 'ann.t@example.com', topics: { beta: true } });
      await contact(p.api, { email: 'bob.t@example.com', topics: { news: false } });
      await contact(p.api, { email: 'cat.t@example.com' });
      expect(fieldsOf(await p.api.post('/campaigns', { name: 'c', subject: 's', body: 'b', from: 'news@example.com', audienceType: 'ALL', topicId: '00000000-0000-4000-8000-000000000000' }).expect(422))).toEqual(['topicId']);
      const cam = await campaign(p.api, { topicId: news.id });
      expect((await p.api.get(`/campaigns/${cam.id}`).expect(200)).body.topicId).toBe(news.id);
      expect((await p.api.get(`/campaigns/${cam.id}/audience-preview`).expect(200)).body).toEqual({ totalRecipients: 3, skippedCount: 1, skipped: { topic: 1 } });
      const stats = await sent(p, cam.id);
      expect(stats).toMatchObject({ totalRecipients: 3, sentCount: 2, skipped: { topic: 1 } });
      expect(subjectsTo('ann.t@example.com')).toEqual(['News for ann.t@example.com']);
      expect(subjectsTo('cat.t@example.com')).toEqual(['News for cat.t@example.com']);
      expect(subjectsTo('bob.t@example.com')).toEqual([]);

      const message = smtp.messages.find((m) => m.envelope.to.includes('ann.t@example.com'))!;
      const rawHeaders = message.raw.toString().replace(/\r?\n[ \t]+/g, ' ');
      expect(rawHeaders).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/im);
      const link = /^List-Unsubscribe: <([^>]+\/u\/t\/[^>]+)>/im.exec(rawHeaders)![1];
      // GET shows a page and changes nothing; the one-click POST leaves the topic only.
      expect((await s.anonymous.get(pathOf(link)).expect(200)).text).toContain('News');
      expect((await p.read.contact(ann.id))!.topics).toEqual({ beta: true });
      await s.anonymous.post(pathOf(link)).type('form').send('List-Unsubscribe=One-Click').expect(200);
      expect(await p.read.contact(ann.id)).toMatchObject({ subscribed: true, topics: { beta: true, news: false } });
      expect(await topicEvents(p, ann.id)).toEqual([
        ['contact.topic.subscribed', 'beta'],
        ['contact.topic.unsubscribed', 'news'],
      ]);
      await s.anonymous.post(`${pathOf(link)}x`).expect(404);
      // A campaign without a topic keeps the contact's unsubscribe-from-everything link.
      const plain = await campaign(p.api, { name: 'Plain', subject: 'Plain for {{email}}' });
      await sent(p, plain.id);
      const other = smtp.messages.find((m) => m.envelope.to.includes('cat.t@example.com') && m.parsed?.subject?.startsWith('Plain'))!;
      expect(other.raw.toString().replace(/\r?\n[ \t]+/g, ' ')).toMatch(/^List-Unsubscribe: <[^>]+\/u\/(?!t\/)[^>]+>/im);
    });
  });

  describe('snooze', () => {
    it('PATCH sets and ends it (future or null, 422 otherwise) with contact.snoozed events', async () => {
      const p = await s.newProject();
      const c = await contact(p.api, { email: 'zz@example.com' });
      expect(fieldsOf(await p.api.patch(`/contacts/${c.id}`, { snoozedUntil: new Date(Date.now() - 60_000).toISOString() }).expect(422))).toEqual(['snoozedUntil']);
      expect(fieldsOf(await p.api.patch(`/contacts/${c.id}`, { snoozedUntil: 'next week' }).expect(422))).toEqual(['snoozedUntil']);
      const until = new Date(Date.now() + 14 * 86_400_000).toISOString();
      expect((await p.api.patch(`/contacts/${c.id}`, { snoozedUntil: until }).expect(200)).body.snoozedUntil).toBe(until);
      expect((await p.api.get('/contacts', { snoozed: true }).expect(200)).body.data.map((x: { id: string }) => x.id)).toEqual([c.id]);
      expect((await p.api.get('/contacts', { snoozed: false }).expect(200)).body.total).toBe(0);
      expect((await p.api.patch(`/contacts/${c.id}`, { snoozedUntil: null }).expect(200)).body.snoozedUntil).toBeNull();
      const events = (await p.read.eventsOf(c.id)).filter((e) => e.name === 'contact.snoozed').map((e) => e.data.until).reverse();
      expect(events).toEqual([until, null]);
      await (await s.newProject()).api.patch(`/contacts/${c.id}`, { snoozedUntil: until }).expect(404);
    });

    it('skips MARKETING mail of campaigns and workflow steps (reason `snoozed`) while transactional mail is delivered, until the snooze has passed', async () => {
      const p = await s.newProject();
      const zed = await contact(p.api, { email: 'zed.s@example.com' });
      await contact(p.api, { email: 'amy.s@example.com' });
      await p.api.patch(`/contacts/${zed.id}`, { snoozedUntil: new Date(Date.now() + 86_400_000).toISOString() }).expect(200);

      const first = await campaign(p.api, { name: 'Snoozy', subject: 'Snoozy for {{email}}' });
      expect(await sent(p, first.id)).toMatchObject({ totalRecipients: 2, sentCount: 1, skipped: { snoozed: 1 } });
      expect(subjectsTo('zed.s@example.com')).toEqual([]);

      const tx = await p.api.post('/v1/send', { to: 'zed.s@example.com', subject: 'Your receipt', body: '<p>Receipt</p>', from: 'news@example.com' }).expect(200);
      expect((await p.read.emailSettled(tx.body.data.emails[0].email)).status).toBe('delivered');

      const tpl = (await p.api.post('/templates', { name: 'wf', subject: 'Workflow mail', body: '<p>Hi</p>', from: 'news@example.com', type: 'MARKETING' }).expect(201)).body.id;
      const wf = (await p.api.post('/workflows', { name: 'wf', eventName: 'nudge' }).expect(201)).body;
      const step = (await p.api.post(`/workflows/${wf.id}/steps`, { type: 'SEND_EMAIL', config: { templateId: tpl } }).expect(201)).body.id;
      await p.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: wf.steps[0].id, toStepId: step }).expect(201);
      const start = await p.api.post(`/workflows/${wf.id}/executions`, { contactId: zed.id }).expect(201);
      const done = await waitFor(async () => {
        const res = await p.api.get(`/workflows/${wf.id}/executions/${start.body.id}`).expect(200);
        return ['COMPLETED', 'EXITED', 'FAILED'].includes(res.body.status) ? res.body : undefined;
      }, 20_000);
      expect(done.steps[1]).toMatchObject({ type: 'SEND_EMAIL', status: 'SKIPPED', output: { skipped: 'snoozed' } });

      // Arranged in SQL: the API only takes a snooze in the future; this one has run out.
      await s.db.query(`UPDATE contacts SET snoozed_until = now() - interval '1 second' WHERE id = $1`, [zed.id]);
      const second = await campaign(p.api, { name: 'Awake', subject: 'Awake for {{email}}' });
      expect(await sent(p, second.id)).toMatchObject({ totalRecipients: 2, sentCount: 2, skipped: {} });
      expect(subjectsTo('zed.s@example.com')).toEqual(['Your receipt', 'Awake for zed.s@example.com']);
    });
  });
});
