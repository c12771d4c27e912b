import request from 'supertest';
import { createProject, startTestApp, TestApp, TestProject } from '../support/app';
import { db, eventually } from '../support/deliverability';
import { SesServer } from '../support/ses-server';
import { ses, SnsTestKit, startSnsTestKit } from '../support/sns';

describe('sending reputation: security endpoints, automatic suspension, re-enable', () => {
  let app: TestApp;
  let project: TestProject;
  let outsider: TestProject;
  let kit: SnsTestKit;
  let sesServer: SesServer;
  let sent: Array<{ id: string; to: string; messageId: string }>;

  const security = (p: TestProject, path: string) => request(app.http).get(path).set('Cookie', p.cookie);
  const bounce = async (i: number) => {
    const envelope = kit.notification(ses.bounce(sent[i].messageId, sent[i].to, 'Permanent'));
    await request(app.http).post('/webhooks/sns').set('Content-Type', 'text/plain').send(JSON.stringify(envelope)).expect(200);
  };
  const sendOne = () =>
    request(app.http)
      .post('/v1/send')
      .set('Authorization', `Bearer ${project.secretKey}`)
      .send({ to: 'next@example.net', subject: 's', body: '<p>b</p>', from: 'sender@example.com' });

  beforeAll(async () => {
    kit = await startSnsTestKit();
    sesServer = await SesServer.start();
    app = await startTestApp({ ...sesServer.env, DOMAIN_VERIFICATION: 'off', SNS_CERT_HOSTS: kit.host, SNS_CERT_ALLOW_HTTP: 'true' });
    project = await createProject(app.http);
    outsider = await createProject(app.http);
    // /v1/send takes at most 50 recipients per call. 105 emails: with 100..108 sent (plus the one sent mid-test), 10 bounces stay within 10% and 11 exceed it.
    const ids: string[] = [];
    for (const [from, count] of [[0, 50], [50, 50], [100, 5]]) {
      const to = Array.from({ length: count }, (_, i) => `r${from + i}@example.net`);
      const res = await request(app.http)
        .post('/v1/send')
        .set('Authorization', `Bearer ${project.secretKey}`)
        .send({ to, subject: 'Hello', body: '<p>Hi</p>', from: 'sender@example.com' })
        .expect(200);
      ids.push(...res.body.data.emails.map((e: { email: string }) => e.email));
    }
    expect(ids).toHaveLength(105);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows: Array<{ id: string; to_address: string; provider_message_id: string | null; status: string }> = await db(app).query(
        `SELECT id, to_address, provider_message_id, status FROM emails WHERE id = ANY($1) ORDER BY to_address`,
        [ids],
      );
      sent = rows.filter((r) => r.status === 'sent' && r.provider_message_id).map((r) => ({ id: r.id, to: r.to_address, messageId: r.provider_message_id! }));
      const pending = rows.filter((r) => r.status === 'queued' || r.status === 'sending').length;
      // Every email handed over; or (queue hiccups aside) enough of them once the deadline passes.
      if (pending === 0 || (Date.now() > deadline && sent.length >= 100)) break;
      if (Date.now() > deadline) throw new Error(`only ${sent.length} of 105 emails were sent`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await kit?.close();
    await sesServer?.close();
  });

  it('reports rates to members on both routes and 404s everyone else', async () => {
    const res = await security(project, `/users/@me/projects/${project.id}/security`).expect(200);
    expect(res.body).toMatchObject({
      projectId: project.id,
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
    await security(project, `/projects/${project.id}/security`).expect(200);
    await security(outsider, `/users/@me/projects/${project.id}/security`).expect(404);
    await security(outsider, `/projects/${project.id}/security`).expect(404);
    await security(project, `/projects/not-a-uuid/security`).expect(404);
    await request(app.http).get(`/projects/${project.id}/security`).expect(401);
  });

  it('stays enabled up to 10% bounces and disables the project above it', async () => {
    const limit = Math.floor(sent.length / 10);
    for (let i = 0; i < limit; i++) await bounce(i);
    const atLimit = await security(project, `/projects/${project.id}/security`).expect(200);
    expect(atLimit.body).toMatchObject({ bounces: limit, disabled: false });
    expect(atLimit.body.bounceRate).toBeLessThanOrEqual(0.1);
    await sendOne().expect(200);

    await bounce(limit);
    const over = await security(project, `/projects/${project.id}/security`).expect(200);
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
    const list = await request(app.http).get('/users/@me/projects').set('Cookie', project.cookie).expect(200);
    expect(list.body.find((p: { id: string }) => p.id === project.id)).toMatchObject({ disabled: true, disabledReason: 'EMAIL_REPUTATION' });

    await request(app.http)
      .patch(`/users/@me/projects/${project.id}`)
      .set('Cookie', project.cookie)
      .set('X-Requested-With', 'x')
      .send({ disabled: false })
      .expect(200);
    await eventually(() => sendOne().expect(200));

    const after = await security(project, `/projects/${project.id}/security`).expect(200);
    expect(after.body.disabled).toBe(false);
    expect(after.body.suspensions[0].liftedAt).toBeTruthy();

    // Late bounces for mail sent before the suspension do not suspend the project again.
    await bounce(sent.length - 1);
    await bounce(sent.length - 2);
    const still = await security(project, `/projects/${project.id}/security`).expect(200);
    expect(still.body.disabled).toBe(false);
    expect(still.body.suspensions).toHaveLength(1);
  });
});
