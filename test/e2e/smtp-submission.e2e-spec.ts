import { randomBytes } from 'node:crypto';
import { connect as netConnect } from 'node:net';
import nodemailer from 'nodemailer';
import request from 'supertest';
import { SmtpListeners } from '../../src/modules/smtp/smtp-listeners';
import { CounterStore } from '../../src/platform/http/rate-limit/counter-store';
import { addVerifiedDomain } from '../support/dns-server';
import { useSmtpDnsSession } from '../support/mail-stack';
import type { ProjectSession } from '../support/session';
import { RawSmtp } from '../support/raw-smtp';
import { pause, waitFor } from '../support/wait';

const DOMAIN = 'relay.example.com';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** A PNG of one pixel, the inline image the HTML part shows through cid:logo. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('SMTP submission relay', () => {
  const { dns, smtp, s } = useSmtpDnsSession({
    SMTP_SUBMISSION_PORT: '0',
    SMTP_SUBMISSION_TLS_PORT: '0',
    SMTP_MAX_RECIPIENTS: '5',
    // Short enough to see the trickling client cut within the test, long enough for a 41 MB upload over TLS on a
    // loaded two-core machine (20 s was not: CI once cut that upload before its DATA ended).
    SMTP_IDLE_TIMEOUT_MS: '30000',
    SMTP_SESSION_TIMEOUT_MS: '45000',
  });
  let starttlsPort: number;
  let tlsPort: number;

  beforeAll(async () => {
    await addVerifiedDomain(s.api, dns, DOMAIN);
    const listeners = s.app.runtime.app.get(SmtpListeners);
    starttlsPort = listeners.get('submission')!.port;
    tlsPort = listeners.get('submission-tls')!.port;
  });
  beforeEach(() => smtp.clear());

  const client = (options: { implicitTls?: boolean; user?: string; pass?: string; ignoreTLS?: boolean; localAddress?: string } = {}) =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port: options.implicitTls ? tlsPort : starttlsPort,
      secure: options.implicitTls ?? false,
      requireTLS: !options.implicitTls && !options.ignoreTLS,
      ignoreTLS: options.ignoreTLS ?? false,
      localAddress: options.localAddress,
      auth: { user: options.user ?? 'mailroom', pass: options.pass ?? s.keys.secret },
      tls: { rejectUnauthorized: false },
    });
  const rcpt = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.org`;
  const emailIdsOf = (response: string) => new RegExp(`queued as (${UUID})`).exec(response)?.[1];

  it('relays over STARTTLS: every envelope recipient gets a DKIM-signed copy that keeps what the client wrote, and no Bcc', async () => {
    const [to1, to2, cc, bcc] = [rcpt('to1'), rcpt('to2'), rcpt('cc'), rcpt('bcc')];
    const messageId = `<relay-${randomBytes(6).toString('hex')}@client.test>`;
    const info = await client().sendMail({
      from: `Relay App <app@${DOMAIN}>`,
      to: [`First <${to1}>`, to2],
      cc,
      bcc,
      replyTo: `support@${DOMAIN}`,
      inReplyTo: '<parent@client.test>',
      references: ['<root@client.test>', '<parent@client.test>'],
      messageId,
      subject: 'Relayed {{ not liquid }} ✓',
      text: 'Plain part',
      html: '<p>HTML part <img src="cid:logo"></p>',
      headers: { 'X-Campaign-Tag': 'spring' },
      attachments: [
        { filename: 'notes.txt', content: 'attached text' },
        { filename: 'logo.png', content: PIXEL, cid: 'logo' },
      ],
    });
    expect(info.response).toMatch(new RegExp(`^250 2\\.0\\.0 Ok: queued as ${UUID} and 3 more$`));
    expect(info.accepted).toHaveLength(4);

    for (const address of [to1, to2, cc, bcc]) {
      const copy = await smtp.waitFor(address);
      expect(copy.envelope.to).toEqual([address]);
      const raw = copy.raw.toString();
      expect(raw).not.toMatch(/^bcc:/im);
      if (address !== bcc) expect(raw).not.toContain(bcc);
      const mail = copy.parsed!;
      expect(mail.subject).toBe('Relayed {{ not liquid }} ✓');
      expect(mail.from!.value[0]).toMatchObject({ address: `app@${DOMAIN}`, name: 'Relay App' });
      expect((Array.isArray(mail.to) ? mail.to : [mail.to!]).flatMap((t) => t.value.map((v) => v.address))).toEqual([to1, to2]);
      expect((mail.cc as { value: Array<{ address: string }> }).value.map((v) => v.address)).toEqual([cc]);
      expect(mail.replyTo!.value[0].address).toBe(`support@${DOMAIN}`);
      expect(mail.messageId).toBe(messageId);
      expect(mail.inReplyTo).toBe('<parent@client.test>');
      expect(mail.references).toEqual(['<root@client.test>', '<parent@client.test>']);
      expect(mail.headers.get('x-campaign-tag')).toBe('spring');
      expect(mail.text!.trim()).toBe('Plain part');
      // The receiver's parser resolves cid:logo to the inline part it names: the reference and the part both arrived.
      expect(mail.html).toContain(`<p>HTML part <img src="data:image/png;base64,${PIXEL.toString('base64')}"></p>`);
      const notes = mail.attachments.find((a) => a.filename === 'notes.txt')!;
      expect(notes.content.toString()).toBe('attached text');
      const logo = mail.attachments.find((a) => a.filename === 'logo.png')!;
      expect(logo).toMatchObject({ cid: 'logo', contentDisposition: 'inline' });
      expect(logo.content.equals(PIXEL)).toBe(true);
      expect(copy.dkim![0]).toMatchObject({ signingDomain: DOMAIN, status: { result: 'pass' } });
    }

    // Ordinary emails of the project: contacts, a row each, `email.*` events that carry source "smtp".
    const emailId = emailIdsOf(info.response)!;
    const sent = await s.read.emailSettled(emailId);
    expect(sent).toMatchObject({ from: `app@${DOMAIN}`, subject: 'Relayed {{ not liquid }} ✓' });
    const events = await waitFor(async () => {
      const found = await s.read.emailEvents(emailId, 'email.sent');
      return found.length ? found : undefined;
    });
    expect(events[0].data).toMatchObject({ emailId, source: 'smtp', from: `app@${DOMAIN}` });
    expect(await s.read.contactByEmail(bcc)).toBeDefined();
  });

  it('relays over implicit TLS for a Plunk relay client (user plunk), a plain-text message staying plain', async () => {
    const to = rcpt('plunk');
    const info = await client({ implicitTls: true, user: 'plunk' }).sendMail({ from: `app@${DOMAIN}`, to, subject: 'From Plunk', text: 'Only text' });
    expect(info.response).toMatch(new RegExp(`^250 2\\.0\\.0 Ok: queued as ${UUID}$`));
    const copy = await smtp.waitFor(to);
    expect(copy.parsed!.text!.trim()).toBe('Only text');
    expect(copy.parsed!.html).toBe(false);
  });

  it('reports its listeners on /config, /health/ready and /metrics', async () => {
    expect((await request(s.http).get('/config').expect(200)).body.smtp).toEqual({ submission: true, inbound: false, submissionPort: 0, submissionTlsPort: 0 });
    const ready = await request(s.http).get('/health/ready').expect(200);
    expect(ready.body.info).toMatchObject({ 'smtp-submission': { status: 'up', port: starttlsPort }, 'smtp-submission-tls': { status: 'up', port: tlsPort } });
    const metrics = (await request(s.http).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/mailroom_smtp_sessions_total\{listener="submission"\} [1-9]/);
    expect(metrics).toMatch(/mailroom_smtp_messages_total\{listener="submission-tls"\} [1-9]/);
  });

  describe('refusals', () => {
    const refusal = async (promise: Promise<unknown>) => {
      const err = (await promise.then(
        () => undefined,
        (e: unknown) => e,
      )) as { response?: string } | undefined;
      expect(err).toBeDefined();
      return err!.response ?? String(err);
    };

    it('535 5.7.8 for a wrong key or user name, 530 5.7.0 for AUTH before TLS', async () => {
      expect(await refusal(client({ pass: 'sk_' + '0'.repeat(64) }).sendMail({ from: `app@${DOMAIN}`, to: rcpt('x'), text: 'x' }))).toMatch(/^535 5\.7\.8 /);
      expect(await refusal(client({ user: 'someone' }).sendMail({ from: `app@${DOMAIN}`, to: rcpt('x'), text: 'x' }))).toMatch(/^535 5\.7\.8 /);
      expect(await refusal(client({ pass: s.keys.public }).sendMail({ from: `app@${DOMAIN}`, to: rcpt('x'), text: 'x' }))).toMatch(/^535 5\.7\.8 /);
      expect(await refusal(client({ ignoreTLS: true }).sendMail({ from: `app@${DOMAIN}`, to: rcpt('x'), text: 'x' }))).toMatch(/^530 5\.7\.0 /);
    });

    it('550 5.7.1 naming the domain for an envelope sender or From header off the verified domains', async () => {
      expect(await refusal(client().sendMail({ from: `app@${DOMAIN}`, to: rcpt('x'), text: 'x', envelope: { from: 'bounce@other.example.net', to: [rcpt('x')] } }))).toMatch(
        /^550 5\.7\.1 Sender domain other\.example\.net is not a verified domain/,
      );
      expect(await refusal(client().sendMail({ from: 'app@unverified.example.net', to: rcpt('x'), text: 'x', envelope: { from: `app@${DOMAIN}`, to: [rcpt('x')] } }))).toMatch(
        /^550 5\.7\.1 Sender domain unverified\.example\.net is not a verified domain/,
      );
    });

    it('452 4.5.3 past SMTP_MAX_RECIPIENTS, the others still served', async () => {
      const to = Array.from({ length: 6 }, (_, i) => rcpt(`many${i}`));
      const info = await client().sendMail({ from: `app@${DOMAIN}`, to, text: 'many' });
      expect(info.accepted).toHaveLength(5);
      expect(info.rejected).toEqual([to[5]]);
      expect((info as unknown as { rejectedErrors: Array<{ response: string }> }).rejectedErrors[0].response).toMatch(/^452 4\.5\.3 /);
      await smtp.waitForCount(5);
    });

    it('552 5.3.4 for a message past 40 MB, which writes nothing', async () => {
      const to = rcpt('big');
      const response = await refusal(client().sendMail({ from: `app@${DOMAIN}`, to, text: 'x'.repeat(41 * 1024 * 1024) }));
      expect(response).toMatch(/^552 5\.3\.4 /);
      expect(await s.read.contactByEmail(to)).toBeUndefined();
    });

    it('451 4.7.1 over the rate limit; 550 5.7.1 with the reason for a disabled project or one over its billing limit', async () => {
      const other: ProjectSession = await s.newProject('Limited');
      await addVerifiedDomain(other.api, dns, 'limited.example.com');
      const send = (to: string | string[]) => client({ pass: other.keys.secret }).sendMail({ from: 'app@limited.example.com', to, text: 'x' });

      await other.dashboard.put(`/users/@me/projects/${other.project.id}/billing-limits`, { transactional: 1 }).expect(200);
      expect(await refusal(send([rcpt('b1'), rcpt('b2')]))).toMatch(/^550 5\.7\.1 This would exceed the project's monthly transactional email limit/);

      // The budget of the minute used up as its API requests would (the counter is the one /v1/send draws on).
      const counters = s.app.runtime.app.get(CounterStore);
      for (let i = 0; i < s.app.config.rateLimitPerMinute; i++) await counters.hit(`rl:${other.project.id}`, 60_000);
      expect(await refusal(send(rcpt('r')))).toMatch(/^451 4\.7\.1 /);
      await counters.clear(`rl:${other.project.id}`);

      // Arranged in SQL: no endpoint disables a project (the reputation check does); the send path caches it for a few seconds.
      await s.db.query(`UPDATE projects SET disabled = true, disabled_reason = 'EMAIL_REPUTATION' WHERE id = $1`, [other.project.id]);
      let refused = '';
      await waitFor(async () => {
        refused = rcpt('disabled');
        const response = await send(refused).then(
          () => '',
          (err: { response?: string }) => err.response ?? '',
        );
        return /^550 5\.7\.1 This project is disabled \(EMAIL_REPUTATION\)/.test(response) ? true : undefined;
      }, 15_000, 500);
      expect(await other.read.contactByEmail(refused)).toBeUndefined();
    });

    it('451 4.3.0 when the database fails, and nothing is written', async () => {
      const to = rcpt('dbfail');
      // Fault staged in SQL: a constraint that fails the content insert stands in for a database failure inside the transaction.
      await s.db.query(`ALTER TABLE email_contents ADD CONSTRAINT smtp_e2e_fail CHECK (subject <> 'fail this insert')`);
      try {
        expect(await refusal(client().sendMail({ from: `app@${DOMAIN}`, to, subject: 'fail this insert', text: 'x' }))).toMatch(/^451 4\.3\.0 /);
      } finally {
        // Fault lifted in SQL, as it was staged.
        await s.db.query(`ALTER TABLE email_contents DROP CONSTRAINT smtp_e2e_fail`);
      }
      expect(await s.read.contactByEmail(to)).toBeUndefined();
    });

    it('421 for an address after ten failed AUTHs within a minute', async () => {
      // From 127.0.0.2, so the lock does not reach the other tests' connections from 127.0.0.1.
      const bad = () => client({ pass: 'sk_' + '1'.repeat(64), localAddress: '127.0.0.2' }).sendMail({ from: `app@${DOMAIN}`, to: rcpt('x'), text: 'x' });
      for (let i = 0; i < 10; i++) expect(await refusal(bad())).toMatch(/^535 5\.7\.8 /);
      expect(await refusal(client({ localAddress: '127.0.0.2' }).sendMail({ from: `app@${DOMAIN}`, to: rcpt('x'), text: 'x' }))).toMatch(/^421 4\.7\.0 Too many failed authentications/);
      await client().sendMail({ from: `app@${DOMAIN}`, to: rcpt('ok'), text: 'still served' });
    });
  });

  it('answers a Message-ID submitted again 250 and sends it once', async () => {
    const to = rcpt('idem');
    const mail = { from: `app@${DOMAIN}`, to, subject: 'Once', text: 'once', messageId: `<once-${randomBytes(6).toString('hex')}@client.test>` };
    const first = await client().sendMail(mail);
    const second = await client({ implicitTls: true }).sendMail(mail);
    const id = emailIdsOf(first.response)!;
    expect(second.response).toBe(`250 2.0.0 Ok: queued as ${id} (this Message-ID was submitted before; not sent again)`);
    await smtp.waitFor(to);
    const contact = await s.read.contactByEmail(to);
    expect(await s.read.emails({ contactId: contact!.id })).toHaveLength(1);
    expect(smtp.to(to)).toHaveLength(1);
  });

  it('leaves nothing behind when the client disconnects mid-DATA', async () => {
    const to = rcpt('middata');
    const raw = await RawSmtp.tls(tlsPort);
    await raw.login(s.keys.secret);
    expect(await raw.command(`MAIL FROM:<app@${DOMAIN}>`)).toMatch(/^250/);
    expect(await raw.command(`RCPT TO:<${to}>`)).toMatch(/^250/);
    expect(await raw.command('DATA')).toMatch(/^354/);
    raw.socket.write(`From: app@${DOMAIN}\r\nTo: ${to}\r\nSubject: cut\r\n\r\nhalf a mess`);
    await pause(200, 'the half message reaches the server before the client drops');
    raw.close();
    // A complete submission after it is served and written; the cut one never is.
    const after = rcpt('after');
    await client().sendMail({ from: `app@${DOMAIN}`, to: after, text: 'after' });
    await smtp.waitFor(after);
    expect(await s.read.contactByEmail(to)).toBeUndefined();
    expect(smtp.to(to)).toHaveLength(0);
  });

  it('holds 100 concurrent sessions and a client trickling a byte a second while /v1/ping stays fast; the trickler is cut', async () => {
    const sessions = await Promise.all(Array.from({ length: 100 }, () => RawSmtp.tls(tlsPort)));
    const trickler = netConnect({ host: '127.0.0.1', port: starttlsPort });
    let closedAt = 0;
    const openedAt = Date.now();
    trickler.on('close', () => (closedAt = Date.now()));
    trickler.on('error', () => undefined);
    const bytes = Buffer.from('EHLO slow.example.org\r\nNOOP\r\n'.repeat(10));
    let sent = 0;
    const drip = setInterval(() => {
      if (!trickler.destroyed && sent < bytes.length) trickler.write(bytes.subarray(sent, ++sent));
    }, 1000);
    try {
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        await s.api.get('/v1/ping').expect(200);
        // Not stalled (an API waiting on the SMTP sessions would take their timeouts, tens of seconds).
        expect(Date.now() - started).toBeLessThan(2000);
        await pause(200, 'pings paced while the sessions are held');
      }
      // Every held session still answers.
      const replies = await Promise.all(sessions.map((session) => session.command('NOOP')));
      expect(replies.every((r) => r.startsWith('250'))).toBe(true);
      // SMTP_SESSION_TIMEOUT_MS (45 s here) cuts the trickler, busy as it keeps itself (the idle timeout never would).
      await waitFor(async () => (closedAt ? true : undefined), 52_000, 100);
      expect(closedAt - openedAt).toBeGreaterThanOrEqual(44_500);
    } finally {
      clearInterval(drip);
      trickler.destroy();
      for (const session of sessions) session.close();
    }
  });

  it('survives malformed commands and malformed MIME: refusals, never a crash, and it keeps answering', async () => {
    const raw = await RawSmtp.tls(tlsPort);
    const ehlo = await raw.command('EHLO fuzz.test');
    expect(ehlo).toMatch(/^250[- ]SIZE 41943040$/m);
    expect(ehlo).toMatch(/^250[- ]AUTH PLAIN LOGIN$/m);
    const garbage = ['', 'HELO', 'MAIL FROM:<<<>>>', 'RCPT TO:', 'DATA', 'AUTH PLAIN !!!notbase64', 'AUTH UNKNOWNMECH', '\u0000\u0001\u0002', 'X'.repeat(5000), 'GET / HTTP/1.1'];
    for (const line of garbage.slice(0, -1)) expect(await raw.command(line)).toMatch(/^[2345]\d\d/);
    raw.close();

    const malformed = await RawSmtp.tls(tlsPort);
    await malformed.login(s.keys.secret);
    const to = rcpt('malformed');
    expect(await malformed.command(`MAIL FROM:<app@${DOMAIN}>`)).toMatch(/^250/);
    expect(await malformed.command(`RCPT TO:<${to}>`)).toMatch(/^250/);
    expect(await malformed.command('DATA')).toMatch(/^354/);
    const body = [
      `From: "Broken \u0000 Name" <app@${DOMAIN}>`,
      'Subject: =?utf-8?B?not-base64?=',
      'Content-Type: multipart/mixed; boundary="never-closed"',
      'X-Folded: first',
      '\tsecond',
      'Bad Header Without Colon',
      '',
      '--never-closed',
      'Content-Type: text/plain; charset=unknown-charset',
      'Content-Transfer-Encoding: base64',
      '',
      '@@@ not base64 @@@',
      '--never-closed',
      'Content-Type: application/octet-stream; name="\u0007bell.bin"',
      'Content-Disposition: attachment',
      '',
      'raw bytes \u0000 here',
    ].join('\r\n');
    malformed.socket.write(`${body}\r\n.\r\n`);
    expect(await malformed.reply()).toMatch(new RegExp(`^250 2\\.0\\.0 Ok: queued as ${UUID}`));
    malformed.close();
    await smtp.waitFor(to);

    await request(s.http).get('/health').expect(200);
    const after = rcpt('alive');
    await client({ implicitTls: true }).sendMail({ from: `app@${DOMAIN}`, to: after, text: 'alive' });
    await smtp.waitFor(after);
  });
});
