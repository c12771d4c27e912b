import nodemailer from 'nodemailer';
import { SmtpListeners } from '../../src/modules/smtp';
import { TestDnsServer } from '../support/dns-server';
import { ApiClient, ProjectSession, useFixture, useSession, waitFor } from '../support/session';

/**
 * A contact's export (`GET /contacts/:id/export`, docs/personal-data.md) through HTTP: every
 * section of a contact with topics, consent history, events, emails with their content, a
 * workflow execution and a message it sent in; other projects' contacts and malformed ids; the
 * audit log's entry; a contact with thousands of events exported whole.
 */

interface Export {
  contact: { id: string; email: string; subscribed: boolean; topics: Record<string, boolean> };
  topics: Array<{ slug: string; default: string; choice: boolean | null; member: boolean }>;
  consent: Array<{ name: string; contactId: string; data: Record<string, unknown> }>;
  events: Array<{ id: string; name: string; contactId: string; contact: { id: string; email: string } | null; data: Record<string, unknown>; createdAt: string }>;
  emails: Array<{ id: string; to: string; subject: string | null; contactId: string; content: null | { subject: string; body: string; text: string | null; headers: Record<string, string>; attachments: Array<{ filename: string; contentType: string | null; size: number }>; variables: Record<string, unknown> | null }; contentExpiredAt: string | null }>;
  executions: Array<{ id: string; workflowId: string; contactId: string; contactEmail: string | null; status: string }>;
  inboundMessages: Array<{ id: string; contactId: string | null; from: string | null; subject: string | null; recipients: string[] }>;
  exportedAt: string;
}

const MX = 'mx.mailroom.test';

describe('contact export', () => {
  const dns = useFixture(() => TestDnsServer.start(), (d) => d.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'outbox', DOMAIN_VERIFICATION: 'off', SMTP_INBOUND_PORT: '0', INBOUND_MX_HOST: MX, ...dns.env() }), { projectName: 'Export A' });
  let other: ProjectSession;
  let ann: string;
  let bob: string;
  let workflowId: string;
  let executionId: string;
  let sendIds: string[];

  const exportOf = async (api: ApiClient, id: string) => {
    const res = await api.get(`/contacts/${id}/export`).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.body as Export;
  };
  const deliver = async (from: string, subject: string) => {
    const port = s.app.runtime.app.get(SmtpListeners).get('inbound')!.port;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false }, name: 'client.example.com' });
    try {
      await transport.sendMail({ from, to: 'support@acme.test', subject, text: 'Please send me my data.' });
    } finally {
      transport.close();
    }
  };

  beforeAll(async () => {
    other = await s.newProject('Export B');
    await s.api.post('/topics', { name: 'News', slug: 'news', default: 'opt_out' }).expect(201);
    await s.api.post('/topics', { name: 'Beta', slug: 'beta', default: 'opt_in' }).expect(201);
    ann = (await s.api.post('/contacts', { email: 'ann@example.com', data: { plan: 'pro' } }).expect(201)).body.id;
    bob = (await s.api.post('/contacts', { email: 'bob@example.com' }).expect(201)).body.id;
    // Consent history: an unsubscribe and a subscribe again, a topic choice, a snooze.
    await s.api.patch(`/contacts/${ann}`, { subscribed: false }).expect(200);
    await s.api.patch(`/contacts/${ann}`, { subscribed: true, topics: { beta: true, news: false } }).expect(200);
    await s.api.patch(`/contacts/${ann}`, { snoozedUntil: new Date(Date.now() + 86_400_000).toISOString() }).expect(200);
    await s.api.post('/v1/track', { email: 'ann@example.com', event: 'signed-up', data: { source: 'web' } }).expect(200);
    await s.api.post('/v1/track', { email: 'bob@example.com', event: 'signed-up' }).expect(200);
    const sent = await s.api
      .post('/v1/send', {
        to: 'ann@example.com',
        from: 'hello@example.com',
        subject: 'Hello {{data.plan}}',
        body: '<p>Your plan: {{data.plan}}</p>',
        headers: { 'X-Order': '42' },
        attachments: [{ filename: 'note.txt', content: Buffer.from('hello').toString('base64'), contentType: 'text/plain' }],
      })
      .expect(200);
    sendIds = (sent.body.data.emails as Array<{ email: string }>).map((e) => e.email);
    await s.api.post('/v1/send', { to: 'bob@example.com', from: 'hello@example.com', subject: 'For Bob', body: '<p>Bob</p>' }).expect(200);
    workflowId = (await s.api.post('/workflows', { name: 'Onboarding', eventName: 'onboard' }).expect(201)).body.id;
    executionId = (await s.api.post(`/workflows/${workflowId}/executions`, { contactId: ann }).expect(201)).body.id;
    await s.api.post('/domains', { domain: 'acme.test' }).expect(201);
    await deliver('Ann <ann@example.com>', 'Data request');
    await deliver('bob@example.com', 'From Bob');
    await waitFor(async () => ((await s.read.events({ name: 'email.received' })).length === 2 ? true : undefined));
    await s.read.emailSettled(sendIds[0]);
  });

  it('holds every section of the contact, and nothing of another contact', async () => {
    const out = await exportOf(s.api, ann);
    expect(out.contact).toMatchObject({ id: ann, email: 'ann@example.com', subscribed: true, topics: { beta: true, news: false } });
    expect(out.contact).toEqual((await s.api.get(`/contacts/${ann}`).expect(200)).body);
    expect(Date.parse(out.exportedAt)).toBeGreaterThan(Date.now() - 60_000);

    // Every topic in the topic list's order, with the contact's choice and membership.
    const listed = (await s.api.get('/topics').expect(200)).body as Array<{ slug: string }>;
    expect(out.topics.map((t) => t.slug)).toEqual(listed.map((t) => t.slug));
    expect(Object.fromEntries(out.topics.map((t) => [t.slug, [t.choice, t.member]]))).toEqual({ news: [false, false], beta: [true, true] });

    // Oldest first: the unsubscribe, then one PATCH's subscribe and topic choices (one instant), then the snooze.
    const consent = out.consent.map((e) => e.name).reverse().slice(-5);
    expect(consent[0]).toBe('contact.unsubscribed');
    expect(consent.slice(1, 4).sort()).toEqual(['contact.subscribed', 'contact.topic.subscribed', 'contact.topic.unsubscribed']);
    expect(consent[4]).toBe('contact.snoozed');
    expect(out.consent.filter((e) => e.name.startsWith('contact.topic.')).map((e) => e.data.topic).sort()).toEqual(['beta', 'news']);
    expect(out.consent.every((e) => e.contactId === ann)).toBe(true);

    // The events as the contact's event list shows them, every page.
    expect(out.events).toEqual(await s.read.eventsOf(ann));
    expect(out.events.map((e) => e.name)).toEqual(expect.arrayContaining(['signed-up', 'contact.unsubscribed', 'email.sent', 'email.received']));

    expect(out.emails).toHaveLength(1);
    const [email] = out.emails;
    const { content, contentExpiredAt, ...meta } = email;
    expect(contentExpiredAt).toBeNull();
    expect(meta).toEqual(await s.read.emails({ contactId: ann }).then((list) => list[0]));
    expect(meta).toMatchObject({ id: sendIds[0], to: 'ann@example.com', subject: 'Hello pro', contactId: ann });
    expect(content).toMatchObject({
      subject: 'Hello {{data.plan}}',
      body: '<p>Your plan: {{data.plan}}</p>',
      headers: { 'X-Order': '42' },
      attachments: [{ filename: 'note.txt', contentType: 'text/plain', disposition: 'attachment', size: 5 }],
    });
    expect(JSON.stringify(content)).not.toContain(Buffer.from('hello').toString('base64'));

    expect(out.executions).toEqual([expect.objectContaining({ id: executionId, workflowId, contactId: ann, contactEmail: 'ann@example.com' })]);

    expect(out.inboundMessages).toEqual([expect.objectContaining({ contactId: ann, from: 'ann@example.com', subject: 'Data request', recipients: ['support@acme.test'] })]);
    expect((await s.api.get(`/inbound/${out.inboundMessages[0].id}`).expect(200)).body).toEqual(out.inboundMessages[0]);

    const text = JSON.stringify(out);
    expect(text).not.toContain('bob@example.com');
    expect(text).not.toContain(bob);
  });

  it('answers a dashboard session of the project, with a file name', async () => {
    const res = await s.dashboard.get(`/contacts/${ann}/export`).set('X-Project-Id', s.project.id).expect(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="contact-${ann}.json"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect((res.body as Export).contact.id).toBe(ann);
    await other.dashboard.get(`/contacts/${ann}/export`).set('X-Project-Id', s.project.id).expect(404);
    await s.anonymous.get(`/contacts/${ann}/export`).expect(401);
  });

  it("answers another project's contact and malformed ids as the other contact routes do, recording nothing", async () => {
    const foreign = await other.api.get(`/contacts/${ann}/export`).expect(404);
    const { requestId: _a, ...foreignError } = foreign.body.error;
    const { requestId: _b, ...getError } = (await other.api.get(`/contacts/${ann}`).expect(404)).body.error;
    expect(foreignError).toEqual(getError);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    for (const id of ['nope', 'cnt_00000000000000000000000000000000', `${ann}x`, "' OR 1=1 --", '%00']) {
      const res = await s.api.get(`/contacts/${encodeURIComponent(id)}/export`);
      expect(res.status).toBe((await s.api.get(`/contacts/${encodeURIComponent(id)}`)).status);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.error.code).toEqual(expect.any(String));
    }
    const entries = (await other.api.get('/audit-log', { action: 'contact.exported' }).expect(200)).body.data;
    expect(entries).toEqual([]);
  });

  it('records contact.exported in the audit log, with the contact as its target', async () => {
    const before = (await s.api.get('/audit-log', { action: 'contact.exported' }).expect(200)).body.total as number;
    await exportOf(s.api, bob);
    const page = (await s.api.get('/audit-log', { action: 'contact.exported' }).expect(200)).body;
    expect(page.total).toBe(before + 1);
    expect(page.data[0]).toMatchObject({ action: 'contact.exported', target: { type: 'contact', id: bob }, actor: { type: 'key' } });
  });

  it('exports a contact with thousands of events whole, each once, newest first', async () => {
    const many = (await s.api.post('/contacts', { email: 'many@example.com' }).expect(201)).body.id as string;
    // Arranged in SQL: 3,000 events set-based (through /v1/track, 3,000 requests); they share 30
    // instants, so the export's batches must page by (time, id) and neither repeat nor drop one.
    await s.db.query(
      `INSERT INTO events (project_id, contact_id, name, data, created_at)
       SELECT $1, $2, 'page.viewed', jsonb_build_object('n', g), now() - (g % 30) * interval '1 second' FROM generate_series(1, 3000) g`,
      [s.project.id, many],
    );
    const out = await exportOf(s.api, many);
    const viewed = out.events.filter((e) => e.name === 'page.viewed');
    expect(viewed).toHaveLength(3000);
    expect(new Set(viewed.map((e) => e.data.n)).size).toBe(3000);
    const times = out.events.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(out.consent.map((e) => e.name)).not.toContain('page.viewed');
  });
});
