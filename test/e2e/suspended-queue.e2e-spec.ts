import { CampaignEngine } from '../../src/modules/campaigns/engine/campaign-engine';
import { EmailPipeline } from '../../src/modules/emails/engine/email-pipeline';
import { TestApp } from '../support/app';
import { createTemplate, db, send } from '../support/deliverability';
import { useSession, waitFor } from '../support/session';

/**
 * Skips decided when the pipeline takes a queued email, from the state at that moment: a
 * project suspended since, an address suppressed or unsubscribed since (MARKETING), a contact
 * that left the mail's topic or snoozed since. White-box: the pipeline (and the campaign engine)
 * is run by hand (ROLE=api has no worker), a project is disabled and an address suppressed
 * directly (no endpoint does either). Emails are read through the API (a skipped email's reason
 * is its `skipReason`).
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
    // Probes, queued while enabled, for the pipeline to take until it sees the project disabled.
    const probes: string[] = [];
    for (let i = 0; i < 30; i++) probes.push((await send(app, project, { ...body, to: `probe${i}@example.org` })).data.emails[0].email as string);
    expect((await owner.read.email(queuedThenSuspended))!.status).toBe('queued');

    const pipeline = app.runtime.app.get(EmailPipeline);
    await pipeline.deliver(queuedWhileEnabled, { isLast: false });
    expect((await owner.read.email(queuedWhileEnabled))!.status).toBe('delivered');

    // Arranged in SQL: only the reputation check disables a project, no endpoint does.
    await db(app).query(`UPDATE projects SET disabled = true, disabled_reason = 'EMAIL_REPUTATION' WHERE id = $1`, [project.id]);
    // The pipeline caches a project for up to 5 s: once it skips a probe as disabled, it sees the change.
    await waitFor(
      async () => {
        const probe = probes.shift();
        if (!probe) throw new Error('the pipeline still took the project as enabled after every probe');
        await pipeline.deliver(probe, { isLast: false });
        return (await owner.read.email(probe))!.status === 'skipped' ? true : undefined;
      },
      15_000,
      500,
    );
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

  it('skips a campaign email whose contact left its topic or snoozed while it waited, sends the others, as one group', async () => {
    const p = await s.newProject();
    const news = (await p.api.post('/topics', { name: 'News', default: 'opt_out' }).expect(201)).body as { id: string; slug: string };
    const contacts: Record<string, string> = {};
    for (const name of ['leaves-topic', 'snoozes', 'stays', 'leaves-other-topic']) {
      contacts[name] = (await p.api.post('/contacts', { email: `${name}@example.org`, subscribed: true }).expect(201)).body.id;
    }
    await p.api.post('/topics', { name: 'Other', default: 'opt_out' }).expect(201);
    const campaign = (await p.api.post('/campaigns', { name: 'News', subject: 'News', body: '<p>News</p>', from: 'news@example.com', audienceType: 'ALL', topicId: news.id }).expect(201)).body.data as { id: string };
    await p.api.post(`/campaigns/${campaign.id}/send`).expect(200);
    await app.runtime.app.get(CampaignEngine).tick();
    const queued = await p.read.emails({ campaignId: campaign.id });
    expect(queued.map((e) => e.status)).toEqual(['queued', 'queued', 'queued', 'queued']);

    // While the emails wait: one contact leaves the campaign's topic, one snoozes, one leaves another topic.
    await p.api.patch(`/contacts/${contacts['leaves-topic']}`, { topics: { [news.slug]: false } }).expect(200);
    await p.api.patch(`/contacts/${contacts.snoozes}`, { snoozedUntil: new Date(Date.now() + 86_400_000).toISOString() }).expect(200);
    await p.api.patch(`/contacts/${contacts['leaves-other-topic']}`, { topics: { other: false } }).expect(200);

    expect(await app.runtime.app.get(EmailPipeline).deliverGroup(queued.map((e) => e.id))).toEqual([]);
    const byContact = new Map((await p.read.emails({ campaignId: campaign.id })).map((e) => [e.contactId, { status: e.status, skipReason: e.skipReason }]));
    expect(byContact.get(contacts['leaves-topic'])).toEqual({ status: 'skipped', skipReason: 'topic' });
    expect(byContact.get(contacts.snoozes)).toEqual({ status: 'skipped', skipReason: 'snoozed' });
    expect(byContact.get(contacts.stays)).toEqual({ status: 'delivered', skipReason: null });
    expect(byContact.get(contacts['leaves-other-topic'])).toEqual({ status: 'delivered', skipReason: null });
  });

  it('skips a MARKETING email whose contact snoozed since it was queued, sends TRANSACTIONAL mail to it anyway', async () => {
    const p = await s.newProject();
    const template = await createTemplate(app, p.project, { name: 'News', subject: 'News', body: '<p>News</p>', type: 'MARKETING', from: 'news@example.com' });
    const marketing = (await send(app, p.project, { to: 'dozes@example.org', template, subscribed: true })).data.emails[0].email as string;
    const transactional = (await send(app, p.project, { to: 'dozes@example.org', from: 'me@example.com', subject: 'Receipt', body: '<p>Paid</p>' })).data.emails[0].email as string;
    const contact = await p.read.contactByEmail('dozes@example.org');
    await p.api.patch(`/contacts/${contact!.id}`, { snoozedUntil: new Date(Date.now() + 86_400_000).toISOString() }).expect(200);

    const pipeline = app.runtime.app.get(EmailPipeline);
    for (const id of [marketing, transactional]) await pipeline.deliver(id, { isLast: false });
    expect(await p.read.email(marketing)).toMatchObject({ status: 'skipped', skipReason: 'snoozed' });
    expect(await p.read.email(transactional)).toMatchObject({ status: 'delivered', skipReason: null });
  });
});
