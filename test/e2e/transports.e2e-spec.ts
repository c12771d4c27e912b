import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { EmailSweeper } from '../../src/modules/emails/worker/email-sweeper';
import { addVerifiedDomain } from '../support/dns-server';
import { useSmtpDnsSession } from '../support/mail-stack';
import { Session, useFixture, useSession, waitFor } from '../support/session';
import { SesServer, SesServerOptions } from '../support/ses-server';

/*
 * Emails (status, provider message id, attempts, sent_at) are read through the API. White-box:
 * the sweep test writes email rows without jobs, a state the API cannot produce (an enqueue that
 * failed after commit), and account mail, which belongs to no project, is read from its row.
 */

/** An app sending through the SES-compatible endpoint (started with `options`). */
function withSesApp(options?: SesServerOptions): { ses: SesServer; s: Session } {
  const ses = useFixture(() => SesServer.start(options), (server) => server.close());
  return { ses, s: useSession(() => ({ ...ses.env, DOMAIN_VERIFICATION: 'off' })) };
}

describe('outbox transport (default)', () => {
  const s = useSession();

  it('writes <emailId>.eml into the data dir, counts it delivered and emits email.sent and email.delivery', async () => {
    const res = await s.api
      .post('/v1/send')
      .send({ to: 'out@example.org', from: 'Me <me@example.com>', subject: 'Outbox {{n}}', body: '<p>n={{n}}</p>', data: { n: 7 } })
      .expect(200);
    const emailId = res.body.data.emails[0].email;
    const file = join(s.app.dataDir, 'outbox', `${emailId}.eml`);
    await waitFor(async () => (existsSync(file) ? true : undefined));
    const parsed = await simpleParser(readFileSync(file));
    expect(parsed.subject).toBe('Outbox 7');
    expect(parsed.html).toContain('n=7');
    expect(parsed.headers.get('x-mailroom-email-id')).toBe(emailId);
    const row = await s.read.emailSettled(emailId, ['delivered']);
    expect(row.deliveredAt).toBeTruthy();
    const events = await waitFor(async () => {
      const list = await s.read.emailEvents(emailId);
      return list.length === 2 ? list : undefined;
    });
    expect(events.map((e) => e.name).sort()).toEqual(['email.delivery', 'email.sent']);
  });

  it('the sweep sends an email left queued without a job, once, and leaves recent ones to their jobs', async () => {
    const res = await s.api.post('/v1/send').send({ to: 'first@example.org', from: 'me@example.com', subject: 'S', body: 'b' }).expect(200);
    const sent = await s.read.emailSettled(res.body.data.emails[0].email, ['delivered']);
    // Rows written without a job, as when the enqueue after commit fails: one stranded for 3
    // minutes, one just written (still inside the 2 minutes its job gets). Fault staged in SQL:
    // no endpoint writes an email without its job.
    const copy = (to: string, age: string) =>
      s.db.query<{ id: string }>(
        `INSERT INTO emails (project_id, contact_id, content_id, type, from_address, to_address, subject, variables, track_opens, track_clicks, created_at, updated_at)
         SELECT project_id, contact_id, content_id, type, from_address, $2, subject, variables, track_opens, track_clicks, now() - $3::interval, now() - $3::interval
           FROM emails WHERE id = $1 RETURNING id`,
        [sent.id, to, age],
      );
    const [[stranded], [recent]] = await Promise.all([copy('stranded@example.org', '3 minutes'), copy('recent@example.org', '0 minutes')]);
    const sweeper = s.app.runtime.app.get(EmailSweeper);
    await sweeper.runNow();
    await s.read.emailSettled(stranded.id, ['delivered']);
    // The email's job id is its id: a second sweep adds nothing for it. It sends another stranded
    // one, though; once that one is delivered, a second job of the first would have run too.
    const [marker] = await copy('marker@example.org', '3 minutes');
    await sweeper.runNow();
    await s.read.emailSettled(marker.id, ['delivered']);
    expect(existsSync(join(s.app.dataDir, 'outbox', `${stranded.id}.eml`))).toBe(true);
    expect((await s.read.email(stranded.id))!.attempts).toBe(1);
    expect((await s.read.email(recent.id))!.status).toBe('queued');
  });

  it('sends account mail (signup verification) through the pipeline from SYSTEM_FROM, with no project', async () => {
    const email = `new-user-${Date.now()}@example.org`;
    await s.anonymous.post('/auth/signup').send({ email, password: 'correct horse battery' }).expect(201);
    const row = await waitFor(async () => {
      // Read in SQL: account mail belongs to no project, so no project's GET /v1/emails shows it.
      const [r] = await s.db.query<{ id: string }>(`SELECT * FROM emails WHERE to_address = $1 AND status = 'delivered'`, [email]);
      return r;
    });
    expect(row).toMatchObject({ project_id: null, contact_id: null, type: 'TRANSACTIONAL', from_address: 'no-reply@localhost', track_opens: false });
    const parsed = await simpleParser(readFileSync(join(s.app.dataDir, 'outbox', `${row.id}.eml`)));
    expect(parsed.from!.value[0]).toEqual({ name: 'Mailroom', address: 'no-reply@localhost' });
    expect(parsed.text).toBeTruthy();
  });
});

describe('ses transport (SES-compatible endpoint on loopback)', () => {
  const fixture = withSesApp();

  it('hands the raw MIME message to SendRawEmail and records the SES MessageId', async () => {
    const res = await fixture.s.api
      .post('/v1/send')
      .send({
        to: 'ses@example.org',
        from: { name: 'SES Sender', email: 'ses-sender@example.com' },
        subject: 'Via SES {{x}}',
        body: '<p>x={{x}}</p>',
        data: { x: 'y' },
        attachments: [{ filename: 'a.txt', content: Buffer.from('attached').toString('base64'), contentType: 'text/plain' }],
      })
      .expect(200);
    const emailId = res.body.data.emails[0].email;
    const row = await fixture.s.read.emailSettled(emailId, ['sent']);
    const stored = await waitFor(async () => (await fixture.ses.emails()).find((e) => e.subject === 'Via SES y'));
    expect(row.providerMessageId).toBe(stored.messageId);
    expect(stored.destination.to).toEqual(['ses@example.org']);
    expect(stored.from).toContain('ses-sender@example.com');
    expect(stored.body.html).toContain('x=y');
    expect(stored.attachments.map((a) => a.filename)).toEqual(['a.txt']);
  });

  it('reports the transport as ready', async () => {
    const res = await fixture.s.anonymous.get('/health/ready');
    expect(JSON.stringify(res.body)).toContain('ses');
  });
});

describe('smtp transport with DKIM from a verified domain', () => {
  const { dns, smtp, s } = useSmtpDnsSession();
  beforeAll(() => addVerifiedDomain(s.api, dns, 'signed.example.com'));

  it('signs what it sends; the receiver verifies the signature through DNS', async () => {
    await s.api
      .post('/v1/send')
      .send({ to: 'dkim@example.org', from: 'news@mail.signed.example.com', subject: 'Signed', body: '<p>signed</p>' })
      .expect(200);
    const msg = await smtp.waitFor('dkim@example.org');
    expect(msg.dkim).toHaveLength(1);
    expect(msg.dkim![0]).toMatchObject({ signingDomain: 'signed.example.com', status: { result: 'pass' } });
    // The raw message goes out as composed: our Message-ID, exactly once.
    expect(msg.raw.toString().match(/^Message-ID: .*$/gim)).toEqual([expect.stringMatching(/^Message-ID: <[0-9a-f-]{36}@mail\.signed\.example\.com>$/i)]);
  });

  it('reports the SMTP transport as ready', async () => {
    const res = await s.anonymous.get('/health/ready').expect(200);
    expect(JSON.stringify(res.body)).toContain('smtp');
  });
});

/** Sends one request to `count` recipients and returns the time between the first and last `sent_at` once all reach `status`. */
async function sendSpreadMs(s: Session, count: number, status: 'sent' | 'delivered'): Promise<number> {
  // One email first, so the measured ones do not wait together for the renderer process to start
  // (the service starts it at boot; from TypeScript sources on a loaded machine that takes seconds).
  const warm = await s.api.post('/v1/send', { to: 'warm-up@example.org', from: 'me@example.com', subject: 's', body: 'b' }).expect(200);
  await s.read.emailSettled(warm.body.data.emails[0].email as string, [status], 60_000);
  const to = Array.from({ length: count }, (_, i) => `spread${i}@example.org`);
  const res = await s.api.post('/v1/send', { to, from: 'me@example.com', subject: 's', body: 'b' }).expect(200);
  const ids: string[] = res.body.data.emails.map((e: { email: string }) => e.email);
  const rows = await waitFor(async () => {
    const list = (await s.read.emails({ status })).filter((e) => ids.includes(e.id));
    return list.length === ids.length ? list : undefined;
  }, 30_000);
  const times = rows.map((r) => new Date(r.sentAt!).getTime());
  return Math.max(...times) - Math.min(...times);
}

describe('SEND_RATE_PER_SECOND', () => {
  const s = useSession({ SEND_RATE_PER_SECOND: '4' });

  it('spreads sends to the configured budget (BullMQ limiter, shared by all workers of the queue)', async () => {
    // 13 emails at 4 per second span four limiter windows: at least two seconds between the end of
    // the first window and the start of the last, so more than one second between the first and
    // the last `sent_at` even when a loaded machine records some of them late (unthrottled, they
    // all leave within a few hundred milliseconds).
    expect(await sendSpreadMs(s, 13, 'delivered')).toBeGreaterThanOrEqual(1_000);
  });
});

describe('SEND_RATE_PER_SECOND unset with ses: the account\'s MaxSendRate', () => {
  const fixture = withSesApp({ quota: { maxSendRate: 2, max24HourSend: 200 } });

  it('reads the quota at start (GetSendQuota) and spreads sends to it', async () => {
    // 7 emails at 2 per second take four limiter windows: the last leaves 3 s after the first
    // window opened (unthrottled, all 7 leave within a few hundred milliseconds).
    expect(await sendSpreadMs(fixture.s, 7, 'sent')).toBeGreaterThanOrEqual(2_000);
    const ready = await fixture.s.anonymous.get('/health/ready').expect(200);
    expect(JSON.stringify(ready.body)).toContain('"maxSendRate":2');
  });
});
