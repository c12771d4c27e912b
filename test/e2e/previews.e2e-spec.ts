import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { pathOf } from '../support/deliverability';
import { ProjectSession, useFixture, useSession, waitFor } from '../support/session';
import { SmtpReceiver } from '../support/smtp-receiver';

/*
 * Previews and test sends "as a contact", for templates and campaigns: the preview is the
 * pipeline's render (the contact's data, the MARKETING footer, List-Unsubscribe), a test copy
 * arrives with the contact's data and counts nowhere. Everything is read through the API.
 */
describe('previews and test sends as a contact', () => {
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'off' }));

  const content = { subject: 'Hi {{firstName ?? "friend"}}', body: '<p>Hello {{firstName ?? "friend"}} of {{company}}, you are {{email}}.</p>' };
  const template = async (p: ProjectSession, type = 'MARKETING') =>
    (await p.api.post('/templates', { name: `t-${randomUUID()}`, from: 'news@example.com', type, ...content }).expect(201)).body.id as string;
  const campaign = async (p: ProjectSession) =>
    (await p.api.post('/campaigns', { name: 'Spring', from: 'news@example.com', audienceType: 'ALL', ...content }).expect(201)).body.data.id as string;
  const contact = async (p: ProjectSession, email: string, data: Record<string, unknown>) =>
    (await p.api.post('/contacts', { email, subscribed: true, data }).expect((r) => expect([200, 201]).toContain(r.status))).body.id as string;

  /** What a test send must leave unchanged: contacts, events (activity, timelines), activity stats, billing usage, campaign stats. */
  const counts = async (p: ProjectSession, campaignId?: string) => ({
    contacts: await p.read.contactCount(),
    events: (await p.read.events()).length,
    activity: (await p.api.get('/activity').expect(200)).body.total as number,
    activityStats: (await p.api.get('/activity/stats').expect(200)).body,
    usage: (await p.dashboard.get(`/users/@me/projects/${p.project.id}/billing-limits`).expect(200)).body,
    campaign: campaignId ? (await p.api.get(`/campaigns/${campaignId}/stats`).expect(200)).body : null,
  });

  for (const kind of ['templates', 'campaigns'] as const) {
    describe(kind, () => {
      const make = (p: ProjectSession) => (kind === 'templates' ? template(p) : campaign(p));

      it('previews with the contact data, the MARKETING footer and List-Unsubscribe, untracked, writing nothing', async () => {
        const p = await s.newProject();
        const ada = await contact(p, 'ada@example.com', { firstName: 'Ada', company: 'Engines' });
        const id = await make(p);
        const before = await counts(p);
        const res = await p.api.post(`/${kind}/${id}/preview`, { contactId: ada }).expect(200);
        expect(res.body.subject).toBe('Hi Ada');
        expect(res.body.html).toContain('Hello Ada of Engines, you are ada@example.com.');
        expect(res.body.html).toMatch(/\/u\/[^"]+/); // the unsubscribe footer the pipeline adds to MARKETING mail
        expect(res.body.text).toContain('Hello Ada of Engines');
        expect(res.body.headers['List-Unsubscribe']).toMatch(/^<http.*\/u\/.+>$/);
        expect(res.body.html).not.toContain('/t/'); // no open pixel or click redirect
        expect(await counts(p)).toEqual(before);
        expect(await p.read.emails()).toHaveLength(0);
      });

      it('sends a test as the contact: arrives with its data at the typed address, creates no contact, counts nowhere', async () => {
        const p = await s.newProject();
        const ada = await contact(p, 'ada@example.com', { firstName: 'Ada', company: 'Engines' });
        const id = await make(p);
        const before = await counts(p, kind === 'campaigns' ? id : undefined);
        const to = `tester-${randomUUID()}@example.com`;
        const res = await p.api.post(`/${kind}/${id}/test`, { email: to, contactId: ada }).expect(200);
        expect(res.body).toMatchObject({ success: true, emailId: expect.any(String) });
        const msg = await waitFor(async () => smtp.messages.find((m) => m.envelope.to.includes(to)), 15_000);
        expect(msg.parsed!.subject).toBe('[Test] Hi Ada');
        expect(msg.parsed!.html).toContain('Hello Ada of Engines, you are ada@example.com.');
        expect(msg.parsed!.html).toMatch(/\/u\/[^"]+/);
        expect(msg.parsed!.headers.get('x-test')).toBe('true');
        // Its unsubscribe links act on no one: the page is the invalid-link page and a mailbox's
        // one-click POST leaves the contact it renders as subscribed.
        const oneClick = /href="(https?:\/\/[^"]+\/u\/[^"]+)"/.exec(msg.parsed!.html as string)![1];
        await request(s.http).get(pathOf(oneClick)).expect(404);
        await request(s.http).post(pathOf(oneClick)).type('form').send('List-Unsubscribe=One-Click').expect((r) => expect(r.status).toBeGreaterThanOrEqual(400));
        expect((await p.api.get(`/contacts/${ada}`).expect(200)).body.subscribed).toBe(true);
        await p.read.emailSettled(res.body.emailId as string, ['sent', 'delivered']);
        expect(await p.read.contactByEmail(to)).toBeUndefined();
        expect(await counts(p, kind === 'campaigns' ? id : undefined)).toEqual(before);
        expect((await p.read.eventsOf(ada)).filter((e) => e.name.startsWith('email.'))).toEqual([]);
      });

      it('answers 404 for another project\'s contact or resource, 422 per bad field', async () => {
        const p = await s.newProject();
        const q = await s.newProject();
        const theirs = await contact(q, 'zed@example.com', { firstName: 'Zed' });
        const mine = await contact(p, 'ada@example.com', { firstName: 'Ada' });
        const id = await make(p);
        const foreign = await make(q);
        expect((await p.api.post(`/${kind}/${id}/preview`, { contactId: theirs }).expect(404)).body.error.code).toBe('NOT_FOUND');
        await p.api.post(`/${kind}/${id}/test`, { email: 'a@example.com', contactId: theirs }).expect(404);
        await p.api.post(`/${kind}/${foreign}/preview`, { contactId: mine }).expect(404);
        await p.api.post(`/${kind}/${foreign}/test`, { email: 'a@example.com', contactId: mine }).expect(404);
        await p.api.post(`/${kind}/not-an-id/preview`, { contactId: mine }).expect(404);
        const bad = await p.api.post(`/${kind}/${id}/preview`, { contactId: 'nope' }).expect(422);
        expect(bad.body.error.errors.map((e: { field: string }) => e.field)).toEqual(['contactId']);
        const both = await p.api.post(`/${kind}/${id}/test`, { email: 'nope', contactId: 'nope' }).expect(422);
        expect(both.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['contactId', 'email']);
        expect(await p.read.emails()).toHaveLength(0);
      });
    });
  }

  it('limits test sends to 20 per project and minute (429 with Retry-After)', async () => {
    const p = await s.newProject();
    const id = await template(p, 'TRANSACTIONAL');
    let last = await p.api.post(`/templates/${id}/test`, { email: 't0@example.com' });
    let sent = 0;
    while (last.status === 200 && sent < 50) {
      sent++;
      last = await p.api.post(`/templates/${id}/test`, { email: `t${sent}@example.com` });
    }
    expect(last.status).toBe(429);
    expect(last.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(sent).toBe(20);
  });
});
