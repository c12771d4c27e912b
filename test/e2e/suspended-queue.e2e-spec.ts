import { EmailPipeline } from '../../src/modules/emails/engine/email-pipeline';
import { TestApp } from '../support/app';
import { createTemplate, db, send } from '../support/deliverability';
import { useSession } from '../support/session';

/**
 * Skips decided when the pipeline takes a queued email, from the state at that moment: a
 * project suspended since, an address suppressed or unsubscribed since (MARKETING).
 * White-box: the pipeline is run by hand (ROLE=api has no worker), a project is disabled and an
 * address suppressed directly (no endpoint does either). Emails are read through the API (a
 * skipped email's reason is its `skipReason`).
 */
describe('queued mail whose project or address changed before sending', () => {
  // ROLE=api runs no workers, so the email stays queued until the test runs the pipeline itself.
  const s = useSession({ ROLE: 'api' });
  let app: TestApp;
  beforeAll(() => {
    app = s.app;
  });

  it('skips mail of a since suspended project with the reason project_disabled, and sends it while the project is enabled', async () => {
    const owner = await s.newProject();
    const project = owner.project;
    const body = { to: 'reader@example.org', from: 'me@example.com', subject: 'Hello', body: '<p>Hi</p>' };
    const queuedThenSuspended = (await send(app, project, body)).data.emails[0].email as string;
    const queuedWhileEnabled = (await send(app, project, body)).data.emails[0].email as string;
    expect((await owner.read.email(queuedThenSuspended))!.status).toBe('queued');

    const pipeline = app.runtime.app.get(EmailPipeline);
    await pipeline.deliver(queuedWhileEnabled, { isLast: false });
    expect((await owner.read.email(queuedWhileEnabled))!.status).toBe('delivered');

    // Arranged in SQL: only the reputation check disables a project, no endpoint does.
    await db(app).query(`UPDATE projects SET disabled = true, disabled_reason = 'EMAIL_REPUTATION' WHERE id = $1`, [project.id]);
    // The pipeline caches a project for up to 5 s.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    await pipeline.deliver(queuedThenSuspended, { isLast: false });
    expect(await owner.read.email(queuedThenSuspended)).toMatchObject({ status: 'skipped', skipReason: 'project_disabled' });
  });

  it('skips a newly suppressed or unsubscribed address (MARKETING), sends TRANSACTIONAL mail to it anyway', async () => {
    const other = await s.newProject();
    const project = other.project;
    const template = await createTemplate(app, project, { name: 'News', subject: 'News', body: '<p>News</p>', type: 'MARKETING', from: 'news@example.com' });
    const queue = async (to: string, extra: Record<string, unknown> = { template, subscribed: true }) =>
      (await send(app, project, { to, ...extra })).data.emails[0].email as string;
    const toSuppressed = await queue('later-bounced@example.org');
    const toUnsubscribed = await queue('later-out@example.org');
    const toStillIn = await queue('still-in@example.org');
    const transactional = await queue('later-bounced@example.org', { from: 'me@example.com', subject: 'Receipt', body: '<p>Paid</p>' });

    // Arranged in SQL: no endpoint adds a suppression (a bounce does, through the SNS webhook).
    await db(app).query(`INSERT INTO suppressions (project_id, email, reason, source) VALUES ($1, 'later-bounced@example.org', 'bounce', 'api')`, [project.id]);
    const unsubscribing = await other.read.contactByEmail('later-out@example.org');
    await other.api.patch(`/contacts/${unsubscribing!.id}`, { subscribed: false }).expect(200);

    const pipeline = app.runtime.app.get(EmailPipeline);
    for (const id of [toSuppressed, toUnsubscribed, toStillIn, transactional]) await pipeline.deliver(id, { isLast: false });
    const byId = new Map((await other.read.emails()).map((e) => [e.id, { status: e.status, error: e.error, skipReason: e.skipReason }]));
    expect(byId.get(toSuppressed)).toEqual({ status: 'skipped', error: null, skipReason: 'suppressed' });
    expect(byId.get(toUnsubscribed)).toEqual({ status: 'skipped', error: null, skipReason: 'unsubscribed' });
    expect(byId.get(toStillIn)).toEqual({ status: 'delivered', error: null, skipReason: null });
    expect(byId.get(transactional)).toEqual({ status: 'delivered', error: null, skipReason: null });
  });
});
