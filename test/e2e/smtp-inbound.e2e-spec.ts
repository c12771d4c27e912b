import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { dkimSign } from 'mailauth';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { SmtpListeners } from '../../src/modules/smtp';
import { TestDnsServer } from '../support/dns-server';
import { send } from '../support/deliverability';
import { RawSmtp } from '../support/raw-smtp';
import { ProjectSession, useFixture, useSession, waitFor } from '../support/session';
import { pause } from '../support/wait';
import { SmtpReceiver } from '../support/smtp-receiver';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Inbound mail and bounces (docs/integrations.md): nodemailer delivers to the real SMTP_INBOUND_PORT
 * listener (STARTTLS with the generated certificate); what it received is read back through the
 * API (GET /inbound/:id and /raw, events, contacts, emails). Outgoing mail goes through the SMTP
 * transport to a loopback receiver, which shows the VERP return path; DSNs and ARF reports sent
 * to that path apply the same feedback as SES's. DNS (mailauth's SPF/DKIM/DMARC lookups and the
 * domain records) is a loopback server.
 */

const MX = 'mx.mailroom.test';
const SENDER_DOMAIN = 'sender.example';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const DKIM_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const DKIM_PUBLIC = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

interface InboundView {
  id: string;
  contactId: string | null;
  mailFrom: string | null;
  recipients: string[];
  from: string | null;
  subject: string | null;
  messageId: string | null;
  size: number;
  spf: string;
  dkim: string;
  dmarc: string;
  receivedAt: string;
}

const compose = (mail: ConstructorParameters<typeof MailComposer>[0]) =>
  new Promise<Buffer>((resolve, reject) => new MailComposer(mail).compile().build((err, message) => (err ? reject(err) : resolve(message))));

async function signed(raw: Buffer): Promise<Buffer> {
  const options = { signatureData: [{ signingDomain: SENDER_DOMAIN, selector: 'sel', privateKey: DKIM_PEM }] };
  const result = await dkimSign(raw, options as unknown as Parameters<typeof dkimSign>[1]);
  expect(result.signatures).toMatch(/^DKIM-Signature: /);
  return Buffer.concat([Buffer.from(result.signatures), raw]);
}

/** A delivery status notification as Postfix writes one. */
function dsn(to: string, action: string, status: string): Buffer {
  return Buffer.from(
    [
      'From: MAILER-DAEMON@mx.example.net (Mail Delivery System)',
      `To: ${to}`,
      'Subject: Undelivered Mail Returned to Sender',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
      '',
      '--B',
      'Content-Type: text/plain',
      '',
      'Your message could not be delivered.',
      '',
      '--B',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.net',
      '',
      'Final-Recipient: rfc822; gone@example.net',
      `Action: ${action}`,
      `Status: ${status}`,
      `Diagnostic-Code: smtp; ${status.startsWith('5') ? '550' : '451'} ${status} mailbox says no`,
      '',
      '--B--',
      '',
    ].join('\r\n'),
  );
}

function arf(to: string): Buffer {
  return Buffer.from(
    [
      'From: feedbackloop@isp.example',
      `To: ${to}`,
      'Subject: complaint',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=feedback-report; boundary="F"',
      '',
      '--F',
      'Content-Type: text/plain',
      '',
      'This is an abuse report.',
      '--F',
      'Content-Type: message/feedback-report',
      '',
      'Feedback-Type: abuse',
      'User-Agent: ISP-FBL/1.0',
      'Version: 1',
      '',
      '--F--',
      '',
    ].join('\r\n'),
  );
}

describe('inbound mail and bounces (SMTP_INBOUND_PORT)', () => {
  const receiver = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const dns = useFixture(() => TestDnsServer.start(), (d) => d.close());
  const hooks = useFixture(() => WebhookReceiver.start(), (r) => r.close());
  const s = useSession(() => ({
    EMAIL_TRANSPORT: 'smtp',
    SMTP_URL: receiver.url,
    DOMAIN_VERIFICATION: 'off',
    SMTP_INBOUND_PORT: '0',
    INBOUND_MX_HOST: MX,
    RETENTION_PRUNE_INTERVAL_MS: '200',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...dns.env(),
  }));
  let other: ProjectSession;
  let port: number;

  const deliver = async (envelope: { from: string; to: string[] }, raw: Buffer) => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false }, name: 'client.sender.example' });
    try {
      return await transport.sendMail({ envelope, raw });
    } finally {
      transport.close();
    }
  };
  /** GET /inbound/:id/raw as bytes. */
  const rawOf = async (p: ProjectSession, id: string) => {
    const res = await p.api
      .get(`/inbound/${id}/raw`)
      .buffer(true)
      .parse((stream, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return { bytes: res.body as Buffer, type: res.headers['content-type'] as string };
  };
  const inbound = async (p: ProjectSession, id: string) => (await p.api.get(`/inbound/${id}`).expect(200)).body as InboundView;
  const received = async (p: ProjectSession, count: number) =>
    waitFor(async () => {
      const events = await p.read.events({ name: 'email.received' });
      return events.length >= count ? events : undefined;
    });

  beforeAll(async () => {
    port = s.app.runtime.app.get(SmtpListeners).get('inbound')!.port;
    other = await s.newProject('Other');
    await s.api.post('/domains').send({ domain: 'acme.test' }).expect(201);
    await other.api.post('/domains').send({ domain: 'other.test' }).expect(201);
    dns.setRecords(SENDER_DOMAIN, 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
    dns.setRecords(`sel._domainkey.${SENDER_DOMAIN}`, 'TXT', [`v=DKIM1; k=rsa; p=${DKIM_PUBLIC}`]);
    dns.setRecords(`_dmarc.${SENDER_DOMAIN}`, 'TXT', ['v=DMARC1; p=reject']);
  });

  it('receives mail for a verified domain: email.received with parsed fields and verdicts, the record, the raw bytes, an unsubscribed contact', async () => {
    const raw = await signed(
      await compose({
        from: 'Alice <alice@sender.example>',
        to: 'support@acme.test',
        cc: 'sales@acme.test',
        subject: 'Order 42',
        messageId: '<order-42@sender.example>',
        inReplyTo: '<earlier@acme.test>',
        text: 'Where is my order?',
        attachments: [{ filename: 'invoice.pdf', content: Buffer.alloc(1234, 7), contentType: 'application/pdf' }],
      }),
    );
    const info = await deliver({ from: 'alice@sender.example', to: ['support@acme.test'] }, raw);
    expect(info.response).toMatch(/^250 2\.0\.0 /);

    const [event] = await received(s, 1);
    expect(event.data).toMatchObject({
      from: 'alice@sender.example',
      to: ['support@acme.test'],
      cc: ['sales@acme.test'],
      subject: 'Order 42',
      messageId: '<order-42@sender.example>',
      inReplyTo: '<earlier@acme.test>',
      text: 'Where is my order?',
      attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', size: 1234 }],
      spf: 'pass',
      dkim: 'pass',
      dmarc: 'pass',
    });
    const id = event.data.inboundId as string;
    const record = await inbound(s, id);
    expect(record).toMatchObject({ mailFrom: 'alice@sender.example', recipients: ['support@acme.test'], from: 'alice@sender.example', subject: 'Order 42', size: raw.length, spf: 'pass', dkim: 'pass', dmarc: 'pass' });
    const stored = await rawOf(s, id);
    expect(stored.type).toMatch(/^message\/rfc822/);
    expect(Buffer.compare(stored.bytes, raw)).toBe(0);

    const contact = await s.read.contactByEmail('alice@sender.example');
    expect(contact).toMatchObject({ subscribed: false });
    expect(record.contactId).toBe(contact!.id);
    expect(event.contactId).toBe(contact!.id);
    // The dashboard's session reads it too; the activity feed shows it with its verdicts.
    await s.dashboard.get(`/inbound/${id}`).set('X-Project-Id', s.project.id).expect(200);
    const activity = (await s.api.get('/activity', { types: 'email.received' }).expect(200)).body.data as Array<{ data: Record<string, unknown> }>;
    expect(activity[0].data).toMatchObject({ inboundId: id, spf: 'pass', dkim: 'pass', dmarc: 'pass' });
    // Counted as inbound mail for billing.
    const consumption = (await s.dashboard.get(`/users/@me/projects/${s.project.id}/billing-consumption`).expect(200)).body;
    expect(consumption.inbound).toBe(1);
  });

  it('reaches webhooks and starts workflows, like every event through the outbox', async () => {
    const hook = (await s.api.post('/webhooks').send({ url: hooks.url('/inbound'), events: ['email.received'] }).expect(201)).body as { secret: string };
    hooks.secret('/inbound', hook.secret);
    const wf = (await s.api.post('/workflows').send({ name: 'On mail', eventName: 'email.received' }).expect(201)).body as { id: string };
    await s.api.patch(`/workflows/${wf.id}`).send({ enabled: true }).expect(200);
    await deliver({ from: 'erin@sender.example', to: ['support@acme.test'] }, await compose({ from: 'erin@sender.example', to: 'support@acme.test', subject: 'Hook me', text: 'x' }));
    const call = await hooks.waitForCall((c) => c.event?.type === 'email.received' && (c.event.data as Record<string, unknown>).subject === 'Hook me');
    expect(call.verified).toBe(true);
    expect(call.event!.data).toMatchObject({ contact: { email: 'erin@sender.example' }, from: 'erin@sender.example', subject: 'Hook me', spf: 'pass' });
    const executions = await waitFor(async () => {
      const list = (await s.api.get(`/workflows/${wf.id}/executions`).expect(200)).body.data as unknown[];
      return list.length > 0 ? list : undefined;
    });
    expect(executions).toHaveLength(1);
    await s.api.patch(`/workflows/${wf.id}`).send({ enabled: false }).expect(200);
  });

  it('keeps an existing contact subscribed, and refuses another project\'s inbound id (404)', async () => {
    await s.api.post('/contacts').send({ email: 'bob@sender.example', subscribed: true }).expect(201);
    await deliver({ from: 'bob@sender.example', to: ['support@acme.test'] }, await compose({ from: 'bob@sender.example', to: 'support@acme.test', subject: 'Hi', text: 'Hello' }));
    const events = await received(s, 2);
    expect((await s.read.contactByEmail('bob@sender.example'))!.subscribed).toBe(true);
    await other.api.get(`/inbound/${events[0].data.inboundId as string}`).expect(404);
    await other.api.get(`/inbound/${events[0].data.inboundId as string}/raw`).expect(404);
    await s.api.get('/inbound/not-a-uuid').expect(404);
  });

  it('refuses a recipient on a domain no project receives with 550 5.7.1 (no open relay)', async () => {
    const raw = await compose({ from: 'x@sender.example', to: 'someone@elsewhere.example', subject: 'relay?', text: 'x' });
    await expect(deliver({ from: 'x@sender.example', to: ['someone@elsewhere.example'] }, raw)).rejects.toMatchObject({ responseCode: 550, response: expect.stringMatching(/^550 5\.7\.1 /) });
  });

  it('gives a message for two projects\' domains one record per project', async () => {
    const before = (await s.read.events({ name: 'email.received' })).length;
    await deliver({ from: 'carol@sender.example', to: ['a@acme.test', 'b@other.test'] }, await compose({ from: 'carol@sender.example', to: ['a@acme.test', 'b@other.test'], subject: 'Both', text: 'x' }));
    const mine = await received(s, before + 1);
    const theirs = await received(other, 1);
    expect(mine[0].data.inboundId).not.toBe(theirs[0].data.inboundId);
    expect((await inbound(s, mine[0].data.inboundId as string)).recipients).toEqual(['a@acme.test']);
    expect((await inbound(other, theirs[0].data.inboundId as string)).recipients).toEqual(['b@other.test']);
  });

  it('records a message for two projects for both or for neither: a failure for one answers 4xx, and the retry records each once', async () => {
    const mine = (await s.read.events({ name: 'email.received' })).length;
    const theirs = (await other.read.events({ name: 'email.received' })).length;
    const raw = await compose({ from: 'dave@sender.example', to: ['a@acme.test', 'b@other.test'], subject: 'All or nothing', text: 'x', messageId: '<all-or-nothing@sender.example>' });
    const envelope = { from: 'dave@sender.example', to: ['a@acme.test', 'b@other.test'] };
    // The insert of the project written second (the higher id) fails, after the first one's went through.
    const second = [s.project.id, other.project.id].sort()[1];
    // Fault staged in SQL: a trigger refuses the second project's row (no endpoint fails a write half-way).
    await s.db.dataSource.query(`CREATE FUNCTION inbound_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await s.db.dataSource.query(`CREATE TRIGGER inbound_refuse BEFORE INSERT ON inbound_messages FOR EACH ROW WHEN (NEW.project_id = '${second}') EXECUTE FUNCTION inbound_refuse()`);
    try {
      const refused = await deliver(envelope, raw).then(() => null, (err: { responseCode?: number }) => err);
      expect(refused?.responseCode).toBeGreaterThanOrEqual(400);
      expect(refused?.responseCode).toBeLessThan(500);
    } finally {
      // Fault lifted in SQL, as it was staged.
      await s.db.dataSource.query('DROP TRIGGER inbound_refuse ON inbound_messages; DROP FUNCTION inbound_refuse()');
    }
    // Neither project recorded it (a message's row and its email.received event are written together).
    expect((await s.read.events({ name: 'email.received' })).length).toBe(mine);
    expect((await other.read.events({ name: 'email.received' })).length).toBe(theirs);
    await deliver(envelope, raw);
    const [ours, yours] = [await received(s, mine + 1), await received(other, theirs + 1)];
    expect([ours.length, yours.length]).toEqual([mine + 1, theirs + 1]);
    // Each project's newest record is this message.
    expect((await inbound(s, ours[0].data.inboundId as string)).messageId).toBe('<all-or-nothing@sender.example>');
    expect((await inbound(other, yours[0].data.inboundId as string)).messageId).toBe('<all-or-nothing@sender.example>');
  });

  it('stores malformed MIME as received', async () => {
    const raw = Buffer.concat([
      Buffer.from('From: broken@sender.example\r\nTo: support@acme.test\r\nSubject: broken\r\nContent-Type: multipart/mixed; boundary="never-closed"\r\n\r\n--never-closed\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n@@@not base64@@@\r\n'),
      Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x0d, 0x0a]),
    ]);
    const before = (await s.read.events({ name: 'email.received' })).length;
    await deliver({ from: 'broken@sender.example', to: ['support@acme.test'] }, raw);
    const [event] = await received(s, before + 1);
    expect(Buffer.compare((await rawOf(s, event.data.inboundId as string)).bytes, raw)).toBe(0);
  });

  it('survives malformed commands and headers: refusals, never a crash, and it keeps receiving', async () => {
    const raw = await RawSmtp.plain(port);
    expect(await raw.command('EHLO fuzz.test')).toMatch(/^250/);
    const garbage = ['', 'HELO', 'MAIL FROM:<<<>>>', 'RCPT TO:', 'DATA', 'AUTH PLAIN AAAA', 'VRFY root', 'RCPT TO:<a@b@c>', '\u0000\u0001\u0002', 'X'.repeat(5000)];
    for (const line of garbage) expect(await raw.command(line)).toMatch(/^[2345]\d\d/);
    raw.close();

    // Headers no parser likes: NUL bytes, a line without a colon, a bad encoded word, an unclosed boundary.
    const before = (await s.read.events({ name: 'email.received' })).length;
    const broken = await RawSmtp.plain(port);
    expect(await broken.command('EHLO fuzz.test')).toMatch(/^250/);
    expect(await broken.command('MAIL FROM:<fuzz@sender.example>')).toMatch(/^250/);
    expect(await broken.command('RCPT TO:<support@acme.test>')).toMatch(/^250/);
    expect(await broken.command('DATA')).toMatch(/^354/);
    const body = ['From: "Nul \u0000 Name" <fuzz@sender.example>', 'Subject: =?utf-8?B?not-base64?=', 'Bad Header Without Colon', 'Content-Type: multipart/mixed; boundary="open"', '', '--open', 'Content-Type: text/plain; charset=unknown', '', 'text'];
    broken.socket.write(`${body.join('\r\n')}\r\n.\r\n`);
    expect(await broken.reply()).toMatch(/^250/);
    broken.close();
    await received(s, before + 1);

    // Still receiving.
    await deliver({ from: 'after@sender.example', to: ['support@acme.test'] }, Buffer.from('From: after@sender.example\r\nTo: support@acme.test\r\nSubject: alive\r\n\r\nalive\r\n'));
    await received(s, before + 2);
  });

  it('verifies at most 5 DKIM signatures of a message, off the event loop: /health answers while a large body with hundreds of signatures is checked, and the library prints nothing', async () => {
    // Each signature with its own l= (past the body's end) costs a pass over the body and makes mailauth print a line.
    const body = `${'a large body line of the message, over and over again\r\n'.repeat(80_000)}`;
    const signatures = Array.from({ length: 300 }, (_, i) => `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${SENDER_DOMAIN}; s=sel; l=${body.length + 100 + i}; h=from:subject; bh=AAAA; b=AAAA`);
    const raw = Buffer.from([...signatures, 'From: hasher@sender.example', 'To: support@acme.test', 'Subject: many signatures', '', body].join('\r\n'));
    const printed = jest.spyOn(console, 'log');
    try {
      let done = false;
      const delivery = deliver({ from: 'hasher@sender.example', to: ['support@acme.test'] }, raw).finally(() => (done = true));
      let slowest = 0;
      let probes = 0;
      while (!done) {
        const started = Date.now();
        await s.anonymous.get('/health').expect(200);
        slowest = Math.max(slowest, Date.now() - started);
        probes++;
      }
      expect((await delivery).response).toMatch(/^250 /);
      expect(probes).toBeGreaterThan(1);
      // A generous bound that only proves "not stalled": before the fix, hashing held the loop for seconds.
      expect(slowest).toBeLessThan(1_500);
      expect(printed.mock.calls.filter((args) => String(args[0]).includes('TOTAL'))).toEqual([]);
    } finally {
      printed.mockRestore();
    }
    const event = await waitFor(async () => (await s.read.events({ name: 'email.received' })).find((e) => e.data.subject === 'many signatures'));
    expect(event.data).toMatchObject({ from: 'hasher@sender.example', dkim: expect.not.stringMatching(/^pass$/) });
  });

  it('leaves nothing for a client that disconnects in the middle of DATA', async () => {
    // A message's row and its email.received event are written together: the events count the records.
    const before = (await s.read.events({ name: 'email.received' })).length;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const script = ['EHLO client.test', 'MAIL FROM:<dave@sender.example>', 'RCPT TO:<support@acme.test>', 'DATA'];
      let buffer = '';
      socket.on('data', (chunk) => {
        buffer += chunk.toString();
        if (!buffer.endsWith('\r\n') || /^\d{3}-/m.test(buffer.split('\r\n').filter(Boolean).pop() ?? '')) return;
        const reply = buffer;
        buffer = '';
        if (reply.startsWith('354')) {
          socket.write('Subject: cut\r\n\r\nhalf a message');
          void pause(100, 'the half message reaches the server before the client drops').then(() => socket.destroy());
          return;
        }
        const next = script.shift();
        if (next) socket.write(`${next}\r\n`);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // A whole message after it, through the same listener, is recorded; the cut one never is.
    await deliver({ from: 'dave@sender.example', to: ['support@acme.test'] }, await compose({ from: 'dave@sender.example', to: 'support@acme.test', subject: 'whole', text: 'x' }));
    const events = await received(s, before + 1);
    expect(events).toHaveLength(before + 1);
    expect(events[0].data.subject).toBe('whole');
    expect(events.some((e) => e.data.subject === 'cut')).toBe(false);
  });

  describe('bounces through the VERP return path', () => {
    /** Sends one email through the SMTP transport and answers its id, contact and the MAIL FROM the receiver saw. */
    async function sent(to: string) {
      const body = await send(s.app, s.project, { to, subject: 'Hello', body: '<p>Hi</p>', from: 'news@acme.test', subscribed: true });
      const id: string = body.data.emails[0].email;
      await s.read.emailSettled(id, ['delivered']);
      const message = await receiver.waitFor(to);
      return { id, contactId: body.data.emails[0].contact.id as string, returnPath: message.envelope.from };
    }

    it('sends outgoing mail with the VERP MAIL FROM and lists the bounce subdomain\'s MX and SPF', async () => {
      const { returnPath } = await sent('verp@example.net');
      expect(returnPath).toMatch(/^bounce\+[0-9a-f]{56}@bounces\.acme\.test$/);
      expect(returnPath.slice(0, returnPath.indexOf('@')).length).toBeLessThanOrEqual(64);
      expect((await s.anonymous.get('/config').expect(200)).body).toMatchObject({ smtp: { inbound: true }, verpBounces: true });
      const domains = (await s.api.get(`/domains/project/${s.project.id}`).expect(200)).body as Array<{ domain: string; records: Array<{ type: string; name: string; value: string }> }>;
      const records = domains.find((d) => d.domain === 'acme.test')!.records.filter((r) => r.name === 'bounces.acme.test');
      expect(records).toEqual([
        expect.objectContaining({ type: 'MX', value: MX, priority: 10 }),
        expect.objectContaining({ type: 'TXT', value: 'v=spf1 a mx ~all' }),
      ]);
    });

    it('marks the email bounced on a permanent DSN, with the SNS bounce\'s side effects', async () => {
      const email = await sent('gone@example.net');
      await deliver({ from: '', to: [email.returnPath] }, dsn(email.returnPath, 'failed', '5.1.1'));
      const row = await s.read.emailSettled(email.id, ['bounced']);
      expect(row.bounceType).toBe('Permanent');
      const [bounce] = await s.read.emailEvents(email.id, 'email.bounce');
      expect(bounce.data).toMatchObject({ emailId: email.id, bounceType: 'Permanent', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 mailbox says no' });
      expect((await s.read.contact(email.contactId))!.subscribed).toBe(false);
      const [unsubscribed] = await s.read.events({ name: 'contact.unsubscribed', contactId: email.contactId });
      expect(unsubscribed.data).toMatchObject({ reason: 'bounce' });
      // Suppressed: the next marketing-type send to it is skipped.
      const template = (await s.api.post('/templates').send({ name: 'n', subject: 'News', body: '<p>n</p>', type: 'MARKETING', from: 'news@acme.test' }).expect(201)).body.id as string;
      const again = await send(s.app, s.project, { to: 'gone@example.net', template, subscribed: true });
      expect(again.data.skipped).toEqual([{ to: 'gone@example.net', reason: 'suppressed' }]);
    });

    it('records a 4.x.x DSN as email.delay only', async () => {
      const email = await sent('slow@example.net');
      await deliver({ from: '', to: [email.returnPath] }, dsn(email.returnPath, 'delayed', '4.4.1'));
      const [delay] = await waitFor(async () => {
        const events = await s.read.emailEvents(email.id, 'email.delay');
        return events.length > 0 ? events : undefined;
      });
      expect(delay.data).toMatchObject({ emailId: email.id, status: '4.4.1' });
      expect((await s.read.email(email.id))!.status).toBe('delivered');
      expect((await s.read.contact(email.contactId))!.subscribed).toBe(true);
      expect(await s.read.emailEvents(email.id, 'email.bounce')).toEqual([]);
    });

    it('turns an ARF report into a complaint with the SNS complaint\'s side effects', async () => {
      const email = await sent('angry@example.net');
      await deliver({ from: 'feedbackloop@isp.example', to: [email.returnPath] }, arf(email.returnPath));
      await s.read.emailSettled(email.id, ['complained']);
      const [complaint] = await s.read.emailEvents(email.id, 'email.complaint');
      expect(complaint.data).toMatchObject({ emailId: email.id, feedbackType: 'abuse' });
      expect((await s.read.contact(email.contactId))!.subscribed).toBe(false);
    });

    it('changes nothing for a forged token or a token at another project\'s bounce domain', async () => {
      const email = await sent('safe@example.net');
      const forged = email.returnPath.replace(/bounce\+(.)/, (_, c: string) => `bounce+${c === 'a' ? 'b' : 'a'}`);
      await deliver({ from: '', to: [forged] }, dsn(forged, 'failed', '5.1.1'));
      const foreign = email.returnPath.replace('@bounces.acme.test', '@bounces.other.test');
      await deliver({ from: '', to: [foreign] }, dsn(foreign, 'failed', '5.1.1'));
      // A genuine delay report after them, through the same return path, is recorded: they were handled before it.
      await deliver({ from: '', to: [email.returnPath] }, dsn(email.returnPath, 'delayed', '4.4.1'));
      await waitFor(async () => ((await s.read.emailEvents(email.id, 'email.delay')).length > 0 ? true : undefined));
      expect((await s.read.email(email.id))!.status).toBe('delivered');
      expect((await s.read.contact(email.contactId))!.subscribed).toBe(true);
      expect(await s.read.emailEvents(email.id, 'email.bounce')).toEqual([]);
      // A bounce address is never recorded as received mail.
      expect((await s.read.events({ name: 'email.received' })).some((e) => e.data.subject === 'Undelivered Mail Returned to Sender')).toBe(false);
    });
  });

  it('purges messages past the retention, rows and raw bytes', async () => {
    const before = (await s.read.events({ name: 'email.received' })).length;
    await deliver({ from: 'old@sender.example', to: ['support@acme.test'] }, await compose({ from: 'old@sender.example', to: 'support@acme.test', subject: 'Old', text: 'x' }));
    const [event] = await received(s, before + 1);
    const id = event.data.inboundId as string;
    const dir = join(s.app.dataDir, 'inbound');
    expect(existsSync(join(dir, `${id}.eml`))).toBe(true);
    // Time travel in SQL: the API cannot age a message; the retention pruner (every 200 ms here) finds it past the default 30 days.
    await s.db.query(`UPDATE inbound_messages SET received_at = now() - interval '31 days' WHERE id = $1`, [id]);
    await waitFor(async () => ((await s.api.get(`/inbound/${id}`)).status === 404 ? true : undefined));
    expect(readdirSync(dir)).not.toContain(`${id}.eml`);
  });
});

describe('inbound mail limits (SMTP_INBOUND_*): temporary refusals past them', () => {
  const s = useSession({
    DOMAIN_VERIFICATION: 'off',
    SMTP_INBOUND_PORT: '0',
    SMTP_INBOUND_MAX_RECIPIENTS: '3',
    SMTP_INBOUND_PER_SENDER_PER_MINUTE: '2',
    SMTP_INBOUND_PER_CLIENT_PER_MINUTE: '4',
  });
  let port: number;
  // Loopback addresses and senders of this run only, so counters shared across runs (Redis) start empty.
  const run = randomBytes(3);
  const clientAddress = (n: number) => `127.${run[0]}.${run[1]}.${(run[2] % 200) + n}`;
  const tag = run.toString('hex');

  const session = async (localAddress: string) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('error', reject));
    const client = new RawSmtp(socket);
    expect(await client.reply()).toMatch(/^220/);
    expect(await client.command('EHLO client.sender.example')).toMatch(/^250/);
    return client;
  };
  /** One whole transaction; resolves the MAIL FROM reply when it is refused, else the reply to the data. */
  const message = async (client: RawSmtp, from: string): Promise<string> => {
    const mailFrom = await client.command(`MAIL FROM:<${from}>`);
    if (!mailFrom.startsWith('250')) return mailFrom;
    expect(await client.command('RCPT TO:<support@acme.test>')).toMatch(/^250/);
    expect(await client.command('DATA')).toMatch(/^354/);
    return client.command(`From: ${from}\r\nTo: support@acme.test\r\nSubject: ${tag}\r\n\r\nhello\r\n.`);
  };

  beforeAll(async () => {
    port = s.app.runtime.app.get(SmtpListeners).get('inbound')!.port;
    await s.api.post('/domains').send({ domain: 'acme.test' }).expect(201);
  });

  it('refuses the recipient past SMTP_INBOUND_MAX_RECIPIENTS with 452 4.5.3', async () => {
    const client = await session(clientAddress(1));
    expect(await client.command(`MAIL FROM:<rcpt-${tag}@sender.example>`)).toMatch(/^250/);
    for (const box of ['a', 'b', 'c']) expect(await client.command(`RCPT TO:<${box}@acme.test>`)).toMatch(/^250/);
    expect(await client.command('RCPT TO:<d@acme.test>')).toMatch(/^452 4\.5\.3 /);
    client.close();
  });

  it('refuses the message past SMTP_INBOUND_PER_SENDER_PER_MINUTE from one sending address, whatever the client, with 451 4.7.1', async () => {
    const from = `same-${tag}@sender.example`;
    const replies: string[] = [];
    for (const n of [2, 3, 4]) {
      const client = await session(clientAddress(n));
      replies.push(await message(client, from));
      client.close();
    }
    expect(replies[0]).toMatch(/^250 /);
    expect(replies[1]).toMatch(/^250 /);
    expect(replies[2]).toMatch(/^451 4\.7\.1 .*at most 2 a minute/);
  });

  it('refuses the message past SMTP_INBOUND_PER_CLIENT_PER_MINUTE from one client address, whatever the sender: forged senders make no more contacts', async () => {
    const client = await session(clientAddress(5));
    const replies: string[] = [];
    for (let i = 0; i < 6; i++) replies.push(await message(client, `flood${i}-${tag}@sender.example`));
    client.close();
    expect(replies.slice(0, 4).every((r) => r.startsWith('250 '))).toBe(true);
    expect(replies[4]).toMatch(/^451 4\.7\.1 .*at most 4 a minute/);
    expect(replies[5]).toMatch(/^451 4\.7\.1 /);
    await waitFor(async () => ((await s.read.contactCount(`flood3-${tag}`)) === 1 ? true : undefined));
    expect(await s.read.contactCount(`-${tag}@sender.example`)).toBe(4 + 1);
  });
});
