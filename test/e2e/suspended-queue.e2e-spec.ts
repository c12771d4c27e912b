import { EmailPipeline } from '../../src/modules/emails/pipeline/email-pipeline';
import { createProject, startTestApp, TestApp, TestProject } from '../support/app';
import { db, emailRow, send } from '../support/deliverability';

/** Mail queued before a project's suspension is not handed to the transport afterwards. */
describe('queued mail of a suspended project', () => {
  let app: TestApp;
  let project: TestProject;

  beforeAll(async () => {
    // ROLE=api runs no workers, so the email stays queued until the test runs the pipeline itself.
    app = await startTestApp({ ROLE: 'api' });
    project = await createProject(app.http);
  });
  afterAll(() => app?.close());

  it('skips it with the reason project_disabled, and sends it while the project is enabled', async () => {
    const body = { to: 'reader@example.org', from: 'me@example.com', subject: 'Hello', body: '<p>Hi</p>' };
    const queuedThenSuspended = (await send(app, project, body)).data.emails[0].email as string;
    const queuedWhileEnabled = (await send(app, project, body)).data.emails[0].email as string;
    expect((await emailRow(app, queuedThenSuspended)).status).toBe('queued');

    const pipeline = app.runtime.app.get(EmailPipeline);
    await pipeline.deliver(queuedWhileEnabled, { isLast: false });
    expect((await emailRow(app, queuedWhileEnabled)).status).toBe('delivered');

    await db(app).query(`UPDATE projects SET disabled = true, disabled_reason = 'EMAIL_REPUTATION' WHERE id = $1`, [project.id]);
    // The pipeline caches a project for up to 5 s.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    await pipeline.deliver(queuedThenSuspended, { isLast: false });
    const [row] = await db(app).query(`SELECT status, error FROM emails WHERE id = $1`, [queuedThenSuspended]);
    expect(row).toEqual({ status: 'skipped', error: 'project_disabled' });
  });
});
