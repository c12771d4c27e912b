import { generateKeyPairSync } from 'node:crypto';
import { createTemplate, send } from '../support/deliverability';
import { ProjectSession, useFixture, useSession, waitFor } from '../support/session';
import { SesServer } from '../support/ses-server';
import { SmtpReceiver } from '../support/smtp-receiver';
import { ses, SnsEnvelope, startSnsTestKit } from '../support/sns';

/*
 * White-box: a test-only trigger that injects a database failure. Emails (status, bounce and
 * complaint marks, provider message id), contacts, events, suppressions (as skipped sends) and
 * consumption are read through the API.
 */
const emailRow = async (s: ProjectSession, id: string) => (await s.read.email(id))!;
const subscribed = async (p: ProjectSession, contactId: string) => (await p.read.contact(contactId))!.subscribed;
/** The project's events of that name, oldest first. */
const eventsNamed = async (p: ProjectSession, name: string) => (await p.read.events({ name })).reverse();

describe('SNS notifications (/webhooks/sns)', () => {
  const kit = useFixture(() => startSnsTestKit(), (k) => k.close());
  const sesServer = useFixture(() => SesServer.start(), (server) => server.close());
  // SES is the transport SNS notifications come from; its message ids map notifications to emails.
  const s = useSession(() => ({ ...sesServer.env, DOMAIN_VERIFICATION: 'off', SNS_CERT_HOSTS: kit.host, SNS_CERT_ALLOW_HTTP: 'true' }));
  let marketing: string;

  const post = (envelope: SnsEnvelope | string, type = 'Notification') =>
    s.anonymous
      .post('/webhooks/sns')
      .set('Content-Type', 'text/plain; charset=UTF-8')
      .set('x-amz-sns-message-type', type)
      .send(typeof envelope === 'string' ? envelope : JSON.stringify(envelope));

  /** Sends one transactional email and returns its row once the transport has it. */
  async function sentEmail(to: string, extra: Record<string, unknown> = {}) {
    const body = await send(s.app, s.project, { to, subject: 'Hi', body: '<p>Hello</p>', from: 'sender@example.com', subscribed: true, ...extra });
    const id: string = body.data.emails[0].email;
    const row = await s.read.emailSettled(id, ['sent', 'delivered'], 15_000);
    expect(row.providerMessageId).toBeTruthy();
    return { id, contactId: body.data.emails[0].contact.id as string, messageId: row.providerMessageId as string };
  }

  /** A counter's value in /metrics (0 when absent): the registry is per process, so tests compare before and after. */
  const counter = async (series: string): Promise<number> => {
    const text = (await s.anonymous.get('/metrics').expect(200)).text;
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };

  beforeAll(async () => {
    marketing = await createTemplate(s.app, s.project, { subject: 'News', body: '<p>News</p>', type: 'MARKETING' });
  });

  it('confirms a subscription by visiting its SubscribeURL', async () => {
    const confirmation = kit.subscriptionConfirmation();
    await post(confirmation, 'SubscriptionConfirmation').expect(200);
    expect(kit.confirmations).toContain(confirmation.Token);
  });

  it('refuses a correctly signed confirmation whose SubscribeURL is on a foreign host', async () => {
    const genuine = kit.subscriptionConfirmation();
    const { Signature: _signature, ...unsigned } = { ...genuine, SubscribeURL: genuine.SubscribeURL!.replace('127.0.0.1', 'localhost') };
    const foreign = kit.sign(unsigned);
    const before = kit.confirmations.length;
    await post(foreign, 'SubscriptionConfirmation').expect(403);
    expect(kit.confirmations).toHaveLength(before);
  });

  it('verifies SignatureVersion 2 as well as 1', async () => {
    await post(kit.notification({ notificationType: 'AmazonSnsSubscriptionSucceeded' }, { signatureVersion: '2', subject: 'Hello' })).expect(200);
    await post(kit.notification({ notificationType: 'AmazonSnsSubscriptionSucceeded' }, { signatureVersion: '1' })).expect(200);
  });

  it('refuses a tampered message, a foreign key and a foreign certificate host with 403, changing nothing', async () => {
    const sent = await sentEmail('tamper@example.net');
    const genuine = kit.notification(ses.bounce(sent.messageId, 'tamper@example.net'));
    const tampered = { ...genuine, Message: JSON.stringify(ses.bounce(sent.messageId, 'other@example.net')) };
    expect((await post(tampered).expect(403)).body.error.code).toBe('FORBIDDEN');

    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await post(kit.notification(ses.bounce(sent.messageId, 'tamper@example.net'), { privateKey: otherKey })).expect(403);

    const foreignHost = kit.certUrl.replace('127.0.0.1', 'localhost');
    await post(kit.notification(ses.bounce(sent.messageId, 'tamper@example.net'), { certUrl: foreignHost })).expect(403);
    await post(kit.notification(ses.bounce(sent.messageId, 'tamper@example.net'), { certUrl: 'https://sns.us-east-1.amazonaws.com.evil.example/cert.pem' })).expect(403);

    const row = await emailRow(s, sent.id);
    expect(row.status).not.toBe('bounced');
    expect(await eventsNamed(s, 'email.bounce')).toHaveLength(0);
    expect(await subscribed(s, sent.contactId)).toBe(true);
  });

  it('answers malformed bodies with 400', async () => {
    expect((await post('not json').expect(400)).body.error.code).toBe('BAD_REQUEST');
    await post(JSON.stringify({ Type: 'Notification' })).expect(400);
  });

  it('applies a permanent bounce: status, event, unsubscribe with reason, suppression', async () => {
    const sent = await sentEmail('hard@example.net');
    const bounces = () => counter('mailroom_delivery_feedback_total{kind="bounce",detail="Permanent"}');
    const bouncedEmails = () => counter('mailroom_emails_total{status="bounced",transport="ses"}');
    const before = [await bounces(), await bouncedEmails()];
    await post(kit.notification(ses.bounce(sent.messageId, 'hard@example.net', 'Permanent'))).expect(200);
    expect([await bounces(), await bouncedEmails()]).toEqual([before[0] + 1, before[1] + 1]);

    const row = await emailRow(s, sent.id);
    expect(row.status).toBe('bounced');
    expect(row.bounceType).toBe('Permanent');
    expect(row.bouncedAt).toBeTruthy();
    const [bounce] = await s.read.emailEvents(sent.id, 'email.bounce');
    expect(bounce.data).toMatchObject({ emailId: sent.id, subject: 'Hi', from: 'sender@example.com', templateId: null, campaignId: null, bounceType: 'Permanent' });
    expect(bounce.contactId).toBe(sent.contactId);
    expect(await subscribed(s, sent.contactId)).toBe(false);
    const unsubscribed = await s.read.events({ name: 'contact.unsubscribed', contactId: sent.contactId });
    expect(unsubscribed).toHaveLength(1);
    expect(unsubscribed[0].data).toMatchObject({ reason: 'bounce' });

    // Suppressed: a MARKETING send skips the address even after an explicit resubscribe; TRANSACTIONAL still goes.
    const skipped = await send(s.app, s.project, { to: 'hard@example.net', template: marketing, subscribed: true });
    expect(skipped.data.emails).toHaveLength(0);
    expect(skipped.data.skipped).toEqual([{ to: 'hard@example.net', reason: 'suppressed' }]);
    const transactional = await send(s.app, s.project, { to: 'hard@example.net', subject: 'Receipt', body: '<p>r</p>', from: 'sender@example.com' });
    expect(transactional.data.emails).toHaveLength(1);
    expect(transactional.data.skipped).toEqual([]);
  });

  it('handles a replayed MessageId once', async () => {
    const sent = await sentEmail('replay@example.net');
    const envelope = kit.notification(ses.complaint(sent.messageId, 'replay@example.net'));
    const complaintsCounted = () => counter('mailroom_delivery_feedback_total{kind="complaint",detail=""}');
    const before = await complaintsCounted();
    const first = await post(envelope).expect(200);
    const second = await post(envelope).expect(200);
    expect(await complaintsCounted()).toBe(before + 1);
    expect(first.body.duplicate).toBe(false);
    expect(second.body.duplicate).toBe(true);
    const complaints = await s.read.emailEvents(sent.id, 'email.complaint');
    expect(complaints).toHaveLength(1);
    expect(complaints[0].data).toMatchObject({ emailId: sent.id, subject: 'Hi', from: 'sender@example.com' });
    const row = await emailRow(s, sent.id);
    expect(row.complainedAt).toBeTruthy();
    expect(row.status).toBe('complained');
    expect(await subscribed(s, sent.contactId)).toBe(false);
    const unsubscribed = await s.read.events({ name: 'contact.unsubscribed', contactId: sent.contactId });
    expect(unsubscribed.map((e) => e.data.reason)).toEqual(['complaint']);
    const skipped = await send(s.app, s.project, { to: 'replay@example.net', template: marketing, subscribed: true });
    expect(skipped.data.skipped).toEqual([{ to: 'replay@example.net', reason: 'suppressed' }]);
  });

  it('applies a bounce whole or not at all: a failure half-way is rolled back and the SNS retry finishes the job', async () => {
    const sent = await sentEmail('flaky@example.net');
    // Fault staged in SQL: a test-only trigger makes the contact's unsubscription fail, after the email
    // was marked and the address suppressed in the same feedback (no API can inject a database failure).
    await s.db.query(`CREATE FUNCTION test_fail_unsubscribe() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.email = 'flaky@example.net' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
    await s.db.query(`CREATE TRIGGER test_fail_unsubscribe BEFORE UPDATE ON contacts FOR EACH ROW EXECUTE FUNCTION test_fail_unsubscribe()`);
    const envelope = kit.notification(ses.bounce(sent.messageId, 'flaky@example.net', 'Permanent'));
    try {
      await post(envelope).expect(500);
    } finally {
      // Fault lifted in SQL, as it was staged.
      await s.db.query(`DROP TRIGGER test_fail_unsubscribe ON contacts`);
      await s.db.query(`DROP FUNCTION test_fail_unsubscribe()`);
    }
    // Nothing of the failed attempt stayed: not bounced, not suppressed, no event.
    expect((await emailRow(s, sent.id)).status).toBe('sent');
    expect(await s.read.emailEvents(sent.id, 'email.bounce')).toHaveLength(0);
    const stillSent = await send(s.app, s.project, { to: 'flaky@example.net', template: marketing, subscribed: true });
    expect(stillSent.data.skipped).toEqual([]);

    // SNS retries the same MessageId: this time every side effect is applied.
    expect((await post(envelope).expect(200)).body.duplicate).toBe(false);
    const row = await emailRow(s, sent.id);
    expect(row.status).toBe('bounced');
    expect(await subscribed(s, sent.contactId)).toBe(false);
    expect(await s.read.emailEvents(sent.id, 'email.bounce')).toHaveLength(1);
    const skipped = await send(s.app, s.project, { to: 'flaky@example.net', template: marketing, subscribed: true });
    expect(skipped.data.skipped).toEqual([{ to: 'flaky@example.net', reason: 'suppressed' }]);
  });

  it('records a transient bounce as an event only', async () => {
    const sent = await sentEmail('soft@example.net');
    await post(kit.notification(ses.bounce(sent.messageId, 'soft@example.net', 'Transient'))).expect(200);
    const bounces = await s.read.emailEvents(sent.id, 'email.bounce');
    expect(bounces).toHaveLength(1);
    expect(bounces[0].data.bounceType).toBe('Transient');
    const row = await emailRow(s, sent.id);
    expect(row.status).not.toBe('bounced');
    expect(row.bouncedAt).toBeNull();
    expect(await subscribed(s, sent.contactId)).toBe(true);
    const res = await send(s.app, s.project, { to: 'soft@example.net', template: marketing });
    expect(res.data.skipped).toEqual([]);
  });

  it('marks a delivery notification delivered once', async () => {
    const sent = await sentEmail('delivered@example.net');
    expect((await emailRow(s, sent.id)).status).toBe('sent');
    await post(kit.notification(ses.delivery(sent.messageId, 'delivered@example.net'))).expect(200);
    const row = await emailRow(s, sent.id);
    expect(row.status).toBe('delivered');
    expect(row.deliveredAt).toBeTruthy();
    await post(kit.notification(ses.delivery(sent.messageId, 'delivered@example.net'))).expect(200);
    const deliveries = await s.read.emailEvents(sent.id, 'email.delivery');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].data).toMatchObject({ emailId: sent.id, subject: 'Hi', from: 'sender@example.com' });
  });

  it('caches signing certificates', async () => {
    const before = kit.certFetches;
    await post(kit.notification({ notificationType: 'AmazonSnsSubscriptionSucceeded' })).expect(200);
    expect(kit.certFetches).toBe(before);
  });
});

describe('SNS inbound mail (/webhooks/sns, SES Received)', () => {
  const kit = useFixture(() => startSnsTestKit(), (k) => k.close());
  const s = useSession(() => ({ SNS_CERT_HOSTS: kit.host, SNS_CERT_ALLOW_HTTP: 'true' }));
  let other: ProjectSession;

  beforeAll(async () => {
    other = await s.newProject();
  });

  it('turns inbound mail into email.received for the project owning the domain', async () => {
    await s.api.post('/domains', { domain: 'inbound-test.example' }).expect(201);
    const sender = await send(s.app, s.project, { to: 'writer@example.org', subject: 's', body: '<p>b</p>', from: 'sender@example.com' });
    const envelope = kit.notification(ses.received('Writer <writer@example.org>', 'support@inbound-test.example', 'Help please'));
    await s.anonymous.post('/webhooks/sns').set('Content-Type', 'text/plain').send(JSON.stringify(envelope)).expect(200);
    const received = await eventsNamed(s, 'email.received');
    expect(received).toHaveLength(1);
    expect(received[0].data).toMatchObject({ subject: 'Help please', from: 'writer@example.org', to: ['support@inbound-test.example'], emailId: null });
    expect(received[0].contactId).toBe(sender.data.emails[0].contact.id);
    expect(await eventsNamed(other, 'email.received')).toHaveLength(0);
  });

  it('counts inbound mail against the monthly inbound limit; over it, the mail is not recorded', async () => {
    await other.dashboard.put(`/users/@me/projects/${other.project.id}/billing-limits`, { inbound: 1 }).expect(200);
    await other.api.post('/domains', { domain: 'limited.example' }).expect(201);
    for (const subject of ['first', 'second']) {
      const envelope = kit.notification(ses.received('writer@example.org', 'help@limited.example', subject));
      await s.anonymous.post('/webhooks/sns').set('Content-Type', 'text/plain').send(JSON.stringify(envelope)).expect(200);
    }
    const received = await eventsNamed(other, 'email.received');
    expect(received.map((e) => e.data.subject)).toEqual(['first']);
    const consumption = await other.dashboard.get(`/users/@me/projects/${other.project.id}/billing-consumption`).expect(200);
    expect(consumption.body.inbound).toBe(1);
  });
});

describe('send-time bounces (SMTP 5xx)', () => {
  const smtp = useFixture(() => SmtpReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, DOMAIN_VERIFICATION: 'off' }));

  it('treats a 550 as a permanent bounce: suppressed, unsubscribed, skipped afterwards', async () => {
    smtp.refuse('gone@example.net', 550);
    const marketing = await createTemplate(s.app, s.project, { subject: 'News', body: '<p>News</p>', type: 'MARKETING' });
    const res = await send(s.app, s.project, { to: 'gone@example.net', template: marketing, subscribed: true });
    const emailId: string = res.data.emails[0].email;
    const contactId: string = res.data.emails[0].contact.id;
    const row = await waitFor(async () => {
      const r = await emailRow(s, emailId);
      return r.status === 'bounced' ? r : undefined;
    });
    expect(row.bounceType).toBe('Permanent');
    await waitFor(async () => ((await subscribed(s, contactId)) ? undefined : true));
    expect((await eventsNamed(s, 'contact.unsubscribed')).map((e) => e.data.reason)).toEqual(['bounce']);
    expect(await eventsNamed(s, 'email.bounce')).toHaveLength(1);
    const again = await send(s.app, s.project, { to: 'gone@example.net', template: marketing, subscribed: true });
    expect(again.data.skipped).toEqual([{ to: 'gone@example.net', reason: 'suppressed' }]);
  });
});
