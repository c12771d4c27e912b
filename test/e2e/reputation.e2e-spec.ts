import request from 'supertest';
import { createProject, startTestApp, TestApp, TestProject, waitFor } from '../support/app';
import { db } from '../support/deliverability';
import { ses, SnsTestKit, startSnsTestKit } from '../support/sns';

describe('sending reputation: security endpoints, automatic suspension, re-enable', () => {
  let app: TestApp;
  let project: TestProject;
  let outsider: TestProject;
  let kit: SnsTestKit;
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
    app = await startTestApp({ SNS_CERT_HOSTS: kit.host, SNS_CERT_ALLOW_HTTP: 'true' });
    project = await createProject(app.http);
    outsider = await createProject(app.http);
    const to = Array.from({ length: 100 }, (_, i) => `r${i}@example.net`);
    const res = await request(app.http)
      .post('/v1/send')
      .set('Authorization', `Bearer ${project.secretKey}`)
      .send({ to, subject: 'Hello', body: '<p>Hi</p>', from: 'sender@example.com' })
      .expect(200);
    const ids: string[] = res.body.data.emails.map((e: { email: string }) => e.email);
    expect(ids).toHaveLength(100);
    sent = await waitFor(async () => {
      const rows: Array<{ id: string; to_address: string; provider_message_id: string | null; status: string }> = await db(app).query(
        `SELECT id, to_address, provider_message_id, status FROM emails WHERE id = ANY($1)`,
        [ids],
      );
      if (rows.length < 100 || rows.some((r) => !r.provider_message_id || !['sent', 'delivered'].includes(r.status))) return undefined;
      return rows.map((r) => ({ id: r.id, to: r.to_address, messageId: r.provider_message_id! }));
    }, 60_000);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await kit?.close();
  });

  it('reports rates to members on both routes and 404s everyone else', async () => {
    const res = await security(project, `/users/@me/projects/${project.id}/security`).expect(200);
    expect(res.body).toMatchObject({
      projectId: project.id,
      disabled: false,
      disabledReason: null,
      emails: 100,
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

  it('stays enabled at exactly 10% bounces and disables the project above it', async () => {
    for (let i = 0; i < 10; i++) await bounce(i);
    const atLimit = await security(project, `/projects/${project.id}/security`).expect(200);
    expect(atLimit.body).toMatchObject({ bounces: 10, bounceRate: 0.1, disabled: false });
    await sendOne().expect(200);

    await bounce(10);
    const over = await security(project, `/projects/${project.id}/security`).expect(200);
    expect(over.body).toMatchObject({ disabled: true, disabledReason: 'EMAIL_REPUTATION' });
    expect(over.body.suspensions).toHaveLength(1);
    expect(over.body.suspensions[0]).toMatchObject({ reason: 'EMAIL_REPUTATION', bounces: 11, liftedAt: null });
    expect(over.body.suspensions[0].bounceRate).toBeGreaterThan(0.1);

    const refused = await sendOne().expect(403);
    expect(refused.body.error.code).toBe('PROJECT_DISABLED');
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
    await sendOne().expect(200);

    const after = await security(project, `/projects/${project.id}/security`).expect(200);
    expect(after.body.disabled).toBe(false);
    expect(after.body.suspensions[0].liftedAt).toBeTruthy();

    // Late bounces for mail sent before the suspension do not suspend the project again.
    await bounce(11);
    await bounce(12);
    const still = await security(project, `/projects/${project.id}/security`).expect(200);
    expect(still.body.disabled).toBe(false);
    expect(still.body.suspensions).toHaveLength(1);
  });
});
