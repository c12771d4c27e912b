import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { JobPayloads, QUEUES } from '../../src/platform/queues/queues';
import { ProjectSession, useFixture, useSession, waitFor } from '../support/session';
import { SmtpReceiver } from '../support/smtp-receiver';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

/*
 * White-box: the queue's jobs, and a project disabled for reputation (no endpoint disables one).
 * Emails, contacts and events are read through the API.
 */
describe('POST /v1/send through SMTP', () => {
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'off' }));
  const send = (body: unknown, key?: string) => {
    const req = s.api.post('/v1/send');
    if (key) req.set('Idempotency-Key', key);
    return req.send(body as object);
  };
  const email = (id: string) => s.read.email(id);
  const settled = (id: string) => s.read.emailSettled(id);
  const counts = async () => {
    const emails = (await s.api.get('/v1/emails', { limit: 1 }).expect(200)).body.total as number;
    return { emails, contacts: await s.read.contactCount() };
  };
  const eventsOf = (emailId: string) => s.read.emailEvents(emailId);

  it('sends an inline email: result shape, headers, parts and rendered, escaped values', async () => {
    const res = await send({
      to: { name: 'Ann Lee', email: 'Ann@Example.org' },
      from: { name: 'Acme', email: 'hello@acme.test' },
      subject: 'Hi {{firstName}} & {{ plan ?? "free" }}',
      body: '<p>Hello {{firstName}}, tier {{profile.tier}}, {{data["first name"] | capitalize}}</p>',
      reply: 'support@acme.test',
      data: { firstName: '<Ann>', profile: { tier: 'gold' }, 'first name': 'ann' },
      headers: { 'X-Campaign': 'spring', 'x-entity-ref-id': '42' },
    }).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        emails: [{ contact: { id: expect.stringMatching(/^cnt_/), email: 'ann@example.org' }, email: expect.stringMatching(/^[0-9a-f-]{36}$/) }],
        skipped: [],
        timestamp: expect.any(String),
      },
    });
    const emailId = res.body.data.emails[0].email;
    const msg = await smtp.waitFor('ann@example.org');
    const parsed = msg.parsed!;
    expect(msg.envelope).toEqual({ from: 'hello@acme.test', to: ['ann@example.org'] });
    expect(parsed.subject).toBe('Hi <Ann> & free');
    expect(parsed.from!.value[0]).toEqual({ name: 'Acme', address: 'hello@acme.test' });
    expect(parsed.to).toMatchObject({ value: [{ name: 'Ann Lee', address: 'ann@example.org' }] });
    expect(parsed.replyTo!.value[0].address).toBe('support@acme.test');
    expect(parsed.messageId).toBe(`<${emailId}@acme.test>`);
    expect(parsed.headers.get('x-mailroom-email-id')).toBe(emailId);
    expect(parsed.headers.get('x-campaign')).toBe('spring');
    expect(parsed.headers.get('x-entity-ref-id')).toBe('42');
    expect(parsed.html).toContain('<p>Hello &lt;Ann&gt;, tier gold, Ann</p>');
    expect(parsed.text).toContain('Hello <Ann>, tier gold, Ann');

    const row = await settled(emailId);
    // With the SMTP transport the receiving server's 250 is the delivery (docs/api.md, "Delivery").
    expect(row).toMatchObject({ status: 'delivered', subject: 'Hi <Ann> & free', attempts: 1, type: 'TRANSACTIONAL', messageId: `<${emailId}@acme.test>` });
    expect(row.sentAt).toBeTruthy();
    expect(row.deliveredAt).toBeTruthy();
    expect(row.providerMessageId).toContain('queued as');
    const events = await waitFor(async () => {
      const list = await eventsOf(emailId);
      return list.length ? list : undefined;
    });
    // One statement writes both (clock_timestamp() apart, which can tie): the order is not asserted here.
    expect(events.map((e) => e.name).sort()).toEqual(['email.delivery', 'email.sent']);
    for (const event of events) expect(event.data).toEqual({ emailId, subject: 'Hi <Ann> & free', from: 'hello@acme.test', templateId: null, campaignId: null });
    expect(events[0].contactId).toBe(res.body.data.emails[0].contact.id);
  });

  it('sends one rendered email per recipient, each with its own contact', async () => {
    const res = await send({
      to: ['one@example.org', { email: 'two@example.org', name: 'Two' }],
      from: 'Team <team@acme.test>',
      subject: 'For {{email}}',
      body: '<p>{{email}}</p>',
    }).expect(200);
    const { emails } = res.body.data;
    expect(emails.map((e: { contact: { email: string } }) => e.contact.email)).toEqual(['one@example.org', 'two@example.org']);
    expect(new Set(emails.map((e: { email: string }) => e.email)).size).toBe(2);
    const one = await smtp.waitFor('one@example.org');
    const two = await smtp.waitFor('two@example.org');
    expect(one.parsed!.subject).toBe('For one@example.org');
    expect(two.parsed!.subject).toBe('For two@example.org');
    expect(one.parsed!.from!.value[0]).toEqual({ name: 'Team', address: 'team@acme.test' });
    expect(one.envelope.to).toEqual(['one@example.org']);
  });

  it("renders each recipient's name as {{name}} unless data sets name, and puts it in the To: header", async () => {
    // Plunk's multi-recipient example: "Hello John Smith!".
    await send({
      to: [{ name: 'John Smith', email: 'john@example.org' }, { name: '<Jo>', email: 'jo@example.org' }, 'anon@example.org'],
      from: 'hello@acme.test',
      subject: 'Hello {{name}}!',
      body: '<p>Hello {{ name ?? "there" }}!</p>',
    }).expect(200);
    const john = (await smtp.waitFor('john@example.org')).parsed!;
    expect(john.subject).toBe('Hello John Smith!');
    expect(john.html).toContain('<p>Hello John Smith!</p>');
    expect(john.to).toMatchObject({ value: [{ name: 'John Smith', address: 'john@example.org' }] });
    const jo = (await smtp.waitFor('jo@example.org')).parsed!;
    expect(jo.subject).toBe('Hello <Jo>!');
    expect(jo.html).toContain('<p>Hello &lt;Jo&gt;!</p>');
    const anon = (await smtp.waitFor('anon@example.org')).parsed!;
    expect(anon.subject).toBe('Hello !');
    expect(anon.html).toContain('<p>Hello there!</p>');
    // The name is stored as the contact's data.name when it has none (docs/plunk.md); a nameless recipient stores nothing.
    expect((await s.read.contactByEmail('john@example.org'))!.data).toEqual({ name: 'John Smith' });
    expect((await s.read.contactByEmail('anon@example.org'))!.data).toEqual({});

    // `data.name` wins (stored, or one-off); a name stored earlier yields to the recipient's name.
    await send({ to: { name: 'John Smith', email: 'john2@example.org' }, from: 'hello@acme.test', subject: 'Hi {{name}}', body: 'b', data: { name: 'Johnny' } }).expect(200);
    expect((await smtp.waitFor('john2@example.org')).parsed!.subject).toBe('Hi Johnny');
    await send({ to: { name: 'John Smith', email: 'john3@example.org' }, from: 'hello@acme.test', subject: 'Hi {{name}}', body: 'b', data: { name: { value: 'J.', persistent: false } } }).expect(200);
    expect((await smtp.waitFor('john3@example.org')).parsed!.subject).toBe('Hi J.');
    await send({ to: { name: 'John Smith', email: 'john2@example.org' }, from: 'hello@acme.test', subject: 'Again {{name}}', body: 'b' }).expect(200);
    const again = await waitFor(async () => smtp.to('john2@example.org').find((m) => m.parsed!.subject?.startsWith('Again')));
    expect(again.parsed!.subject).toBe('Again John Smith');
    // The stored name is never overwritten by a send.
    expect((await s.read.contactByEmail('john2@example.org'))!.data).toEqual({ name: 'Johnny' });
  });

  it('converts a markdown body (type "markdown") to HTML after rendering its Liquid; type "html" or none sends the body as given', async () => {
    await send({
      to: 'md@example.org',
      from: 'hello@acme.test',
      subject: 'Markdown for {{firstName}}',
      type: 'markdown',
      tracking: false,
      body: '# Hello {{firstName}}\n\nSome **bold** text and a [link](https://example.com/x).\n\n- one\n- two',
      data: { firstName: '<Ann>' },
    }).expect(200);
    const md = (await smtp.waitFor('md@example.org')).parsed!;
    expect(md.subject).toBe('Markdown for <Ann>');
    expect(md.html).toContain('<h1>Hello &lt;Ann&gt;</h1>');
    expect(md.html).toContain('<p>Some <strong>bold</strong> text and a <a href="https://example.com/x">link</a>.</p>');
    expect(md.html).toContain('<li>two</li>');
    expect(md.text).toContain('Some bold text');
    expect(md.text).not.toContain('**');

    for (const [address, type] of [['as-html@example.org', 'html'], ['no-type@example.org', undefined]] as const) {
      await send({ to: address, from: 'hello@acme.test', subject: 'HTML', type, tracking: false, body: '<p># Not a *heading*</p>' }).expect(200);
      const html = (await smtp.waitFor(address)).parsed!;
      expect(html.html).toContain('<p># Not a *heading*</p>');
      expect(html.html).not.toContain('<h1>');
    }
  });

  it('uses the template, overridden by explicit fields, with the deprecated name as fallback', async () => {
    const tpl = await s.api
      .post('/templates')
      .send({ name: 'Receipt', subject: 'Receipt for {{firstName ?? "you"}}', body: '<p>Total {{total}}</p>', from: 'billing@acme.test', replyTo: 'billing-help@acme.test', type: 'TRANSACTIONAL' })
      .expect(201);
    const res = await send({ to: 'tpl@example.org', template: tpl.body.id, data: { total: '9.99' }, name: 'Billing' }).expect(200);
    const msg = await smtp.waitFor('tpl@example.org');
    expect(msg.parsed!.subject).toBe('Receipt for you');
    expect(msg.parsed!.html).toContain('Total 9.99');
    expect(msg.parsed!.from!.value[0]).toEqual({ name: 'Billing', address: 'billing@acme.test' });
    expect(msg.parsed!.replyTo!.value[0].address).toBe('billing-help@acme.test');
    const row = await settled(res.body.data.emails[0].email);
    expect(row.templateId).toBe(tpl.body.id);
    const events = await waitFor(async () => ((await eventsOf(row.id)).length ? eventsOf(row.id) : undefined));
    expect(events[0].data.templateId).toBe(tpl.body.id);

    await send({ to: 'tpl2@example.org', template: tpl.body.id, subject: 'Override', reply: 'other@acme.test', from: { email: 'x@acme.test', name: 'X' } }).expect(200);
    const over = await smtp.waitFor('tpl2@example.org');
    expect(over.parsed!.subject).toBe('Override');
    expect(over.parsed!.replyTo!.value[0].address).toBe('other@acme.test');
    expect(over.parsed!.from!.value[0]).toEqual({ name: 'X', address: 'x@acme.test' });
  });

  it('stores persistent data, renders one-off values without storing them, and applies the subscription rules', async () => {
    const res = await send({
      to: 'data@example.org',
      from: 'hello@acme.test',
      subject: 'Code {{code}}',
      body: '<p>{{plan}} {{code}}</p>',
      data: { plan: 'pro', code: { value: 'X-123', persistent: false } },
    }).expect(200);
    const msg = await smtp.waitFor('data@example.org');
    expect(msg.parsed!.subject).toBe('Code X-123');
    const contactId = res.body.data.emails[0].contact.id;
    expect(await s.read.contact(contactId)).toMatchObject({ subscribed: false, data: { plan: 'pro' } });
    expect((await s.read.contact(contactId))!.data).toEqual({ plan: 'pro' });

    await send({ to: 'data@example.org', from: 'hello@acme.test', subject: 's', body: 'b', subscribed: true }).expect(200);
    expect((await s.read.contact(contactId))!.subscribed).toBe(true);
    await send({ to: 'data@example.org', from: 'hello@acme.test', subject: 's', body: 'b' }).expect(200);
    expect((await s.read.contact(contactId))!.subscribed).toBe(true);
  });

  it('carries attachments, inline images referenced by cid, and overrides default headers case-insensitively', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    await send({
      to: 'files@example.org',
      from: 'hello@acme.test',
      reply: 'ignored@acme.test',
      subject: 'Files',
      body: '<p>Logo: <img src="cid:logo-1"></p>',
      headers: { 'reply-to': 'custom@acme.test' },
      attachments: [
        { filename: 'report.csv', content: b64('a,b\n1,2\n'), contentType: 'text/csv' },
        { filename: 'logo.png', content: b64(png), contentType: 'image/png', contentId: 'logo-1', disposition: 'inline' },
      ],
    }).expect(200);
    const msg = await smtp.waitFor('files@example.org');
    const parsed = msg.parsed!;
    expect(parsed.replyTo!.value.map((v) => v.address)).toEqual(['custom@acme.test']);
    expect(msg.raw.toString().match(/^reply-to:/gim)).toHaveLength(1);
    const csv = parsed.attachments.find((a) => a.filename === 'report.csv')!;
    expect(csv.content.toString()).toBe('a,b\n1,2\n');
    expect(csv.contentType).toBe('text/csv');
    expect(csv.contentDisposition).toBe('attachment');
    const logo = parsed.attachments.find((a) => a.filename === 'logo.png')!;
    expect(logo.contentId).toBe('<logo-1>');
    expect(logo.contentDisposition).toBe('inline');
    expect(logo.content.equals(png)).toBe(true);
    expect(msg.raw.toString()).toMatch(/multipart\/related/);
  });

  it('retries a temporary (4xx) refusal with backoff, then delivers once', async () => {
    smtp.refuse('later@example.org', 451, 1);
    const res = await send({ to: 'later@example.org', from: 'hello@acme.test', subject: 'Retry', body: '<p>r</p>' }).expect(200);
    const row = await settled(res.body.data.emails[0].email);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(smtp.to('later@example.org')).toHaveLength(1);
  });

  it("sends one request's recipients as one grouped job; a temporary refusal in the group is retried alone; each is delivered once", async () => {
    smtp.refuse('group-b@example.org', 451, 1);
    const to = ['group-a@example.org', 'group-b@example.org', 'group-c@example.org'];
    const res = await send({ to, from: 'hello@acme.test', subject: 'Group', body: '<p>g</p>' }).expect(200);
    const ids: string[] = res.body.data.emails.map((e: { email: string }) => e.email);
    const rows = await Promise.all(ids.map((id) => settled(id)));
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 2],
      ['delivered', 1],
    ]);
    for (const address of to) expect(smtp.to(address)).toHaveLength(1);
    const queue = s.app.runtime.app.get<Queue<JobPayloads['email-send']>>(getQueueToken(QUEUES.emailSend));
    const jobs = await queue.getJobs(['completed']);
    expect(jobs.filter((j) => j.data.emailIds?.some((id) => ids.includes(id))).map((j) => j.data.emailIds)).toEqual([ids]);
    expect(jobs.filter((j) => j.data.emailId !== undefined && ids.includes(j.data.emailId)).map((j) => j.data.emailId)).toEqual([ids[1]]);
  });

  it('marks a permanent (5xx) refusal bounced without retrying, and emits email.bounce', async () => {
    smtp.refuse('gone@example.org', 550);
    const res = await send({ to: 'gone@example.org', from: 'hello@acme.test', subject: 'Bounce', body: '<p>b</p>' }).expect(200);
    const emailId = res.body.data.emails[0].email;
    const row = await settled(emailId);
    expect(row).toMatchObject({ status: 'bounced', bounceType: 'Permanent', attempts: 1 });
    expect(row.error).toMatch(/Mailbox unavailable/);
    const events = await waitFor(async () => ((await eventsOf(emailId)).length ? eventsOf(emailId) : undefined));
    expect(events.map((e) => e.name)).toEqual(['email.bounce']);
    expect(events[0].data).toMatchObject({ emailId, bounceType: 'Permanent', subject: 'Bounce' });
    expect(smtp.to('gone@example.org')).toHaveLength(0);
  });

  it('applies the tracking override and the project mode', async () => {
    const on = await send({ to: 't1@example.org', from: 'hello@acme.test', subject: 's', body: 'b' }).expect(200);
    const off = await send({ to: 't2@example.org', from: 'hello@acme.test', subject: 's', body: 'b', tracking: false }).expect(200);
    expect(await email(on.body.data.emails[0].email)).toMatchObject({ trackOpens: true, trackClicks: true });
    expect(await email(off.body.data.emails[0].email)).toMatchObject({ trackOpens: false, trackClicks: false });
  });

  it('refuses a repeated Idempotency-Key with 409 and sends once', async () => {
    const body = { to: 'idem@example.org', from: 'hello@acme.test', subject: 'Once', body: 'b' };
    await send(body, 'send-key-1').expect(200);
    const again = await send(body, 'send-key-1').expect(409);
    expect(again.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    await smtp.waitFor('idem@example.org');
    // No second copy: one email written, and one sent after it through the same path has arrived.
    expect((await s.read.emails()).filter((e) => e.to === 'idem@example.org')).toHaveLength(1);
    await send({ ...body, to: 'idem-after@example.org' }).expect(200);
    await smtp.waitFor('idem-after@example.org');
    expect(smtp.to('idem@example.org')).toHaveLength(1);
  });

  describe('bad input: 422 with one item per problem, nothing stored or sent', () => {
    const base = { to: 'bad@example.org', from: 'hello@acme.test', subject: 'S', body: 'B' };
    const cases: Array<[string, Record<string, unknown>, string[]]> = [
      ['subject with a newline', { subject: 'a\nb' }, ['subject']],
      ['empty body', { body: '' }, ['body']],
      ['11 attachments', { attachments: Array.from({ length: 11 }, () => ({ filename: 'a.txt', content: b64('x'), contentType: 'text/plain' })) }, ['attachments']],
      ['invalid base64', { attachments: [{ filename: 'a.txt', content: '%%%not-base64', contentType: 'text/plain' }] }, ['attachments[0].content']],
      ['a header name with CR/LF', { headers: { 'X-A\r\nBcc: evil@x.com': 'v' } }, ['headers.X-A\\r\\nBcc: evil@x.com']],
      ['a header value with CR/LF', { headers: { 'X-A': 'v\r\nBcc: evil@x.com' } }, ['headers.X-A']],
      ['a header value over 998 characters', { headers: { 'X-A': 'v'.repeat(999) } }, ['headers.X-A']],
      ['an inline attachment without contentId', { attachments: [{ filename: 'a.png', content: b64('x'), contentType: 'image/png', disposition: 'inline' }] }, ['attachments[0].contentId']],
      ['one invalid recipient among valid ones', { to: ['ok1@example.org', 'not-an-email', { email: 'ok2@example.org' }] }, ['to[1]']],
      ['a missing recipient', { to: undefined }, ['to']],
      ['no subject, body or from without a template', { subject: undefined, body: undefined, from: undefined }, ['subject', 'body', 'from']],
      ['Liquid that does not parse', { body: 'line\n{% if x %}' }, ['body']],
      ['a malformed template id', { template: 'abc' }, ['template']],
      ['an unknown body type', { type: 'text' }, ['type']],
      ['a body type that is not a string', { type: 1 }, ['type']],
      ['attachments over 10 MB', { attachments: [{ filename: 'big.bin', content: Buffer.alloc(10 * 1024 * 1024 + 1).toString('base64') }] }, ['attachments']],
    ];
    it.each(cases)('%s', async (_name, patch, fields) => {
      const before = await counts();
      const received = smtp.count;
      const res = await send({ ...base, ...patch }).expect(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toEqual(fields);
      expect(await counts()).toEqual(before);
      expect(smtp.count).toBe(received);
    });

    it('answers an unknown template and another project’s template with 404', async () => {
      const other: ProjectSession = await s.newProject('Other');
      const theirs = await other.api
        .post('/templates')
        .send({ name: 'T', subject: 's', body: 'b', from: 'a@acme.test' })
        .expect(201);
      const before = await counts();
      expect((await send({ ...base, template: theirs.body.id }).expect(404)).body.error.code).toBe('NOT_FOUND');
      await send({ ...base, template: '00000000-0000-4000-8000-000000000000' }).expect(404);
      expect(await counts()).toEqual(before);
    });

    it('refuses the public key with 401 INVALID_API_KEY', async () => {
      const res = await s.publicApi.post('/v1/send', base).expect(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    });

    it('refuses a disabled project with 403 PROJECT_DISABLED', async () => {
      const disabled = await s.newProject('Disabled');
      // Arranged in SQL: only the reputation check disables a project, no endpoint does.
      await s.db.query(`UPDATE projects SET disabled = true, disabled_reason = 'EMAIL_REPUTATION' WHERE id = $1`, [disabled.project.id]);
      const res = await disabled.api.post('/v1/send', base).expect(403);
      expect(res.body.error.code).toBe('PROJECT_DISABLED');
    });
  });
});

describe('POST /v1/send with domain verification on', () => {
  const s = useSession({ EMAIL_TRANSPORT: 'outbox', DOMAIN_VERIFICATION: 'dns', DNS_SERVERS: '127.0.0.1:9' });

  it('refuses an unverified sender domain with 403 DOMAIN_NOT_VERIFIED and stores nothing', async () => {
    const res = await s.api
      .post('/v1/send')
      .send({ to: 'x@example.org', from: 'hi@unverified.example', subject: 's', body: 'b' })
      .expect(403);
    expect(res.body.error.code).toBe('DOMAIN_NOT_VERIFIED');
    expect(await s.read.contactCount()).toBe(0);
  });
});
