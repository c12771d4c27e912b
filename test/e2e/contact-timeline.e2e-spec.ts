import { ProjectSession, useSession, waitFor } from '../support/session';

/** What a contact's page reads: its activity with template names, and its workflow executions. */
describe('contact timeline', () => {
  const s = useSession({ EMAIL_TRANSPORT: 'outbox' }, { projectName: 'Timeline A' });
  let other: ProjectSession;
  let ann: string;
  let templateId: string;
  let workflowId: string;

  beforeAll(async () => {
    other = await s.newProject('Timeline B');
    const template = await s.api.post('/templates', { name: 'Welcome mail', subject: 'Welcome {{email}}', body: '<p>Hi</p>', from: 'news@example.com', type: 'TRANSACTIONAL' }).expect(201);
    templateId = template.body.id;
    ann = (await s.api.post('/contacts', { email: 'ann@example.com' }).expect(201)).body.id;
    await s.api.post('/v1/send', { to: 'ann@example.com', template: templateId }).expect(200);
    await s.api.post('/v1/send', { to: 'ann@example.com', from: 'hello@example.com', subject: 'No template', body: '<p>x</p>' }).expect(200);
    const wf = await s.api.post('/workflows', { name: 'Onboarding', eventName: 'signed-up' }).expect(201);
    workflowId = wf.body.id;
    await s.api.post(`/workflows/${workflowId}/executions`, { contactId: ann }).expect(201);
    await waitFor(async () => ((await s.api.get(`/activity?contactId=${ann}&types=email.sent`).expect(200)).body.data.length === 2 ? true : undefined));
  });

  it('names the template of email activity (and names nothing without one)', async () => {
    const sent = (await s.api.get(`/activity?contactId=${ann}&types=email.sent`).expect(200)).body.data as Array<Record<string, unknown>>;
    const withTemplate = sent.find((i) => i.subject === 'Welcome ann@example.com');
    expect(withTemplate).toMatchObject({ templateId, templateName: 'Welcome mail' });
    const plain = sent.find((i) => i.subject === 'No template');
    expect(plain).toBeDefined();
    expect(plain).not.toHaveProperty('templateName');
    expect(plain).not.toHaveProperty('campaignName');
    // A deleted template leaves its id and no name.
    await s.api.delete(`/templates/${templateId}`).expect(204);
    const after = (await s.api.get(`/activity?contactId=${ann}&types=email.sent`).expect(200)).body.data as Array<Record<string, unknown>>;
    const orphan = after.find((i) => i.templateId === templateId);
    expect(orphan).toBeDefined();
    expect(orphan).not.toHaveProperty('templateName');
  });

  it("lists the contact's workflow executions with the workflow's name, for its own project only", async () => {
    const res = await s.api.get(`/activity/executions?contactId=${ann}`).expect(200);
    expect(res.body.data).toEqual([
      { id: expect.any(String), workflowId, workflowName: 'Onboarding', status: expect.any(String), exitReason: null, startedAt: expect.stringMatching(/Z$/), completedAt: expect.anything() },
    ]);
    expect((await other.api.get(`/activity/executions?contactId=${ann}`).expect(200)).body.data).toEqual([]);
    expect((await s.api.get('/activity/executions?contactId=cnt_nope').expect(200)).body.data).toEqual([]);
    const missing = await s.api.get('/activity/executions').expect(422);
    expect(missing.body.error.code).toBe('VALIDATION_ERROR');
  });
});
