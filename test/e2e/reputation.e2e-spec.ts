import { eventually } from '../support/deliverability';
import { ProjectSession, useFixture, useSession, waitFor } from '../support/session';
import { SesServer } from '../support/ses-server';
import { ses, startSnsTestKit } from '../support/sns';

// Security, projects, sends and emails (the provider message ids SNS notifications must name) go
// through the API.
describe('sending reputation: security endpoints, automatic suspension, re-enable', () => {
  const kit = useFixture(() => startSnsTestKit(), (k) => k.close());
  const sesServer = useFixture(() => SesServer.start(), (server) => server.close());
  const s = useSession(() => ({ ...sesServer.env, DOMAIN_VERIFICATION: 'off', SNS_CERT_HOSTS: kit.host, SNS_CERT_ALLOW_HTTP: 'true' }));
  let outsider: ProjectSession;
  let sent: Array<{ id: string; to: string; messageId: string }>;

  const security = (p: ProjectSession, path: string) => p.dashboard.get(path);
  const bounce = async (i: number) => {
    const envelope = kit.notification(ses.bounce(sent[i].messageId, sent[i].to, 'Permanent'));
    await s.anonymous.post('/webhooks/sns').set('Content-Type', 'text/plain').send(JSON.stringify(envelope)).expect(200);
  };
  const sendOne = () => s.api.post('/v1/send', { to: 'next@example.net', subject: 's', body: '<p>b</p>', from: 'sender@example.com' });

  beforeAll(async () => {
    outsider = await s.newProject();
    // /v1/send takes at most 50 recipients per call. 105 emails: with 100..108 sent (plus the one sent mid-test), 10 bounces stay within 10% and 11 exceed it.
    const ids: string[] = [];
    for (const [from, count] of [[0, 50], [50, 50], [100, 5]]) {
      const to = Array.from({ length: count }, (_, i) => `r${from + i}@example.net`);
      const res = await s.api.post('/v1/send', { to, subject: 'Hello', body: '<p>Hi</p>', from: 'sender@example.com' }).expect(200);
      ids.push(...res.body.data.emails.map((e: { email: string }) => e.email));
    }
    expect(ids).toHaveLength(105);
    const deadline = Date.now() + 30_000;
    await waitFor(
      async () => {
        const rows = (await s.read.emails()).filter((e) => ids.includes(e.id)).sort((a, b) => (a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
        sent = rows.filter((r) => r.status === 'sent' && r.providerMessageId).map((r) => ({ id: r.id, to: r.to, messageId: r.providerMessageId! }));
        const pending = rows.filter((r) => r.status === 'queued' || r.status === 'sending').length;
        // Every email handed over; or (queue hiccups aside) enough of them once the deadline passes.
        if (pending === 0 || (Date.now() > deadline && sent.length >= 100)) return true;
        if (Date.now() > deadline) throw new Error(`only ${sent.length} of 105 emails were sent`);
        return undefined;
      },
      60_000,
      250,
    );
  }, 120_000);

  it('reports rates to members on both routes and 404s everyone else', async () => {
    const res = await security(s, `/users/@me/projects/${s.project.id}/security`).expect(200);
    expect(res.body).toMatchObject({
      projectId: s.project.id,
      disabled: false,
      disabledReason: null,
      emails: sent.length,
      bounces: 0,
      complaints: 0,
      bounceRate: 0,
      complaintRate: 0,
      thresholds: { minimumEmails: 100, bounceRate: 0.1, complaintRate: 0.005 },
      suspensions: [],
    });
    await security(s, `/projects/${s.project.id}/security`).expect(200);
    await security(outsider, `/users/@me/projects/${s.project.id}/security`).expect(404);
    await security(outsider, `/projects/${s.project.id}/security`).expect(404);
    await security(s, `/projects/not-a-uuid/security`).expect(404);
    await s.anonymous.get(`/projects/${s.project.id}/security`).expect(401);
  });

  it('stays enabled up to 10% bounces and disables the project above it', async () => {
    const limit = Math.floor(sent.length / 10);
    for (let i = 0; i < limit; i++) await bounce(i);
    const atLimit = await security(s, `/projects/${s.project.id}/security`).expect(200);
    expect(atLimit.body).toMatchObject({ bounces: limit, disabled: false });
    expect(atLimit.body.bounceRate).toBeLessThanOrEqual(0.1);
    await sendOne().expect(200);

    await bounce(limit);
    const over = await security(s, `/projects/${s.project.id}/security`).expect(200);
    expect(over.body).toMatchObject({ disabled: true, disabledReason: 'EMAIL_REPUTATION' });
    expect(over.body.suspensions).toHaveLength(1);
    expect(over.body.suspensions[0]).toMatchObject({ reason: 'EMAIL_REPUTATION', bounces: limit + 1, liftedAt: null });
    expect(over.body.suspensions[0].bounceRate).toBeGreaterThan(0.1);

    // The send path caches a project for a few seconds.
    await eventually(async () => {
      const refused = await sendOne().expect(403);
      expect(refused.body.error.code).toBe('PROJECT_DISABLED');
    });
  });

  it('is re-enabled by an ADMIN and then sends again, with a fresh window', async () => {
    const list = await s.dashboard.get('/users/@me/projects').expect(200);
    expect(list.body.find((p: { id: string }) => p.id === s.project.id)).toMatchObject({ disabled: true, disabledReason: 'EMAIL_REPUTATION' });

    await s.dashboard.patch(`/users/@me/projects/${s.project.id}`, { disabled: false }).expect(200);
    await eventually(() => sendOne().expect(200));

    const after = await security(s, `/projects/${s.project.id}/security`).expect(200);
    expect(after.body.disabled).toBe(false);
    expect(after.body.suspensions[0].liftedAt).toBeTruthy();

    // Late bounces for mail sent before the suspension do not suspend the project again.
    await bounce(sent.length - 1);
    await bounce(sent.length - 2);
    const still = await security(s, `/projects/${s.project.id}/security`).expect(200);
    expect(still.body.disabled).toBe(false);
    expect(still.body.suspensions).toHaveLength(1);
  });
});
