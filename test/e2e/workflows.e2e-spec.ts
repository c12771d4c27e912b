import request from 'supertest';
import { createProject, createServicesDatabase, TEST_MODE, waitFor } from '../support/app';
import { withApiAndWorker } from '../support/service-process';
import { ApiClient, useSession } from '../support/session';

/** Workflows through HTTP: the graph API and its rules, triggers, and every step type but WEBHOOK (workflow-webhook). */
describe('workflows', () => {
  const s = useSession({ EMAIL_TRANSPORT: 'outbox' });

  async function template(api: ApiClient, type = 'MARKETING'): Promise<string> {
    const res = await api.post('/templates', { name: `t-${type}`, subject: 'Hi {{firstName}}', body: '<p>Hello {{firstName}} {{event.plan}} {{workflow.source}}</p>', from: 'news@example.com', type });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function workflow(api: ApiClient, eventName: string, allowReentry = false) {
    const res = await api.post('/workflows', { name: `wf ${eventName}`, eventName, allowReentry }).expect(201);
    return { id: res.body.id as string, trigger: res.body.steps[0].id as string, body: res.body };
  }

  async function step(api: ApiClient, wf: string, type: string, config: Record<string, unknown>): Promise<string> {
    const res = await api.post(`/workflows/${wf}/steps`, { type, config });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function link(api: ApiClient, wf: string, fromStepId: string, toStepId: string, extra: Record<string, unknown> = {}) {
    await api.post(`/workflows/${wf}/transitions`, { fromStepId, toStepId, ...extra }).expect(201);
  }

  async function contact(api: ApiClient, email: string, data: Record<string, unknown> = {}, subscribed = true): Promise<string> {
    const res = await api.post('/contacts', { email, data, subscribed });
    return res.body.id;
  }

  async function settled(api: ApiClient, wf: string, execution: string, statuses = ['COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'], timeoutMs = 20_000) {
    return waitFor(async () => {
      const res = await api.get(`/workflows/${wf}/executions/${execution}`).expect(200);
      return statuses.includes(res.body.status) ? res.body : undefined;
    }, timeoutMs);
  }

  async function onlyExecution(api: ApiClient, wf: string, timeoutMs = 15_000) {
    return waitFor(async () => {
      const res = await api.get(`/workflows/${wf}/executions`).expect(200);
      return res.body.total >= 1 ? res.body.data[0] : undefined;
    }, timeoutMs);
  }

  /**
   * The `workflows` consumer of the event outbox (which takes events in order) is past every event
   * tracked so far: an event tracked now has started a workflow of its own.
   */
  let markers = 0;
  async function consumerPastEarlierEvents() {
    const eventName = `marker.${++markers}`;
    const wf = await workflow(s.api, eventName);
    await link(s.api, wf.id, wf.trigger, await step(s.api, wf.id, 'EXIT', { reason: 'marker' }));
    await s.api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(200);
    await s.api.post('/v1/track', { email: 'marker@example.com', event: eventName }).expect(200);
    await onlyExecution(s.api, wf.id);
  }

  it('creates a workflow with its TRIGGER step, which cannot be deleted', async () => {
    const wf = await workflow(s.api, 'signup');
    expect(wf.body).toMatchObject({ name: 'wf signup', triggerType: 'EVENT', triggerConfig: { eventName: 'signup' }, enabled: false, allowReentry: false, transitions: [] });
    expect(wf.body.steps).toEqual([{ id: expect.any(String), type: 'TRIGGER', name: 'Trigger', config: { eventName: 'signup' }, position: null }]);
    const del = await s.api.delete(`/workflows/${wf.id}/steps/${wf.trigger}`).expect(409);
    expect(del.body.error.code).toBe('CONFLICT');
    const list = await s.api.get('/workflows').expect(200);
    expect(list.body).toMatchObject({ page: 1, pageSize: 20 });
    expect(list.body.data.some((w: { id: string }) => w.id === wf.id)).toBe(true);
    await s.api.patch(`/workflows/${wf.id}`, { triggerConfig: { eventName: 'renamed' }, enabled: true }).expect(200);
    const got = await s.api.get(`/workflows/${wf.id}`).expect(200);
    expect(got.body).toMatchObject({ enabled: true, triggerConfig: { eventName: 'renamed' } });
    expect(got.body.steps[0].config).toEqual({ eventName: 'renamed' });
  });

  it('validates step configs with 422 naming the field, and changes nothing', async () => {
    const wf = await workflow(s.api, 'cfg');
    const other = await s.newProject('other');
    const foreignTemplate = await template(other.api, 'TRANSACTIONAL');
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['SEND_EMAIL', { templateId: foreignTemplate }, 'config.templateId'],
      ['SEND_EMAIL', {}, 'config.templateId'],
      ['DELAY', { amount: 366, unit: 'days' }, 'config.amount'],
      ['DELAY', { amount: 1, unit: 'weeks' }, 'config.unit'],
      ['WAIT_FOR_EVENT', { timeout: 5 }, 'config.eventName'],
      ['CONDITION', { field: 'nope', operator: 'equals', value: 1 }, 'config.field'],
      ['CONDITION', { field: 'data.plan', operator: 'within', value: 1 }, 'config.operator'],
      ['CONDITION', { field: 'data.plan', operator: 'equals' }, 'config.value'],
      ['WEBHOOK', { url: 'ftp://example.com/x', method: 'POST' }, 'config.url'],
      ['WEBHOOK', { url: 'https://example.com/x', method: 'TRACE' }, 'config.method'],
      ['UPDATE_CONTACT', {}, 'config'],
      ['EXIT', { reason: 5 }, 'config.reason'],
      ['DELAY', { amount: 1, unit: 'days', extra: true }, 'config.extra'],
    ];
    for (const [type, config, field] of bad) {
      const res = await s.api.post(`/workflows/${wf.id}/steps`, { type, config });
      expect({ type, config, status: res.status, fields: res.body.error?.errors?.map((e: { field: string }) => e.field) }).toMatchObject({ status: 422, fields: expect.arrayContaining([field]) });
    }
    await s.api.post(`/workflows/${wf.id}/steps`, { type: 'TRIGGER', config: { eventName: 'x' } }).expect(422);
    // null does not clear a required field: 422 naming it.
    for (const field of ['name', 'triggerType', 'eventName', 'enabled', 'allowReentry']) {
      const res = await s.api.patch(`/workflows/${wf.id}`, { [field]: null });
      expect([field, res.status, res.body.error?.errors?.map((e: { field: string }) => e.field)]).toEqual([field, 422, [field]]);
    }
    expect((await s.api.patch(`/workflows/${wf.id}/steps/${wf.trigger}`, { config: null })).status).toBe(422);
    const got = await s.api.get(`/workflows/${wf.id}`).expect(200);
    expect(got.body.steps).toHaveLength(1);
  });

  it('changes a SEND_EMAIL step to another template of the project, and refuses a foreign one', async () => {
    // The template is read inside the step's change, under the workflow's lock: on the embedded
    // database a read on another connection waited for that transaction forever (no answer).
    const wf = await workflow(s.api, 'retemplate');
    const first = await template(s.api);
    const second = await template(s.api, 'TRANSACTIONAL');
    const foreign = await template((await s.newProject('other-retemplate')).api);
    const sendStep = await step(s.api, wf.id, 'SEND_EMAIL', { templateId: first });
    const changed = await s.api.patch(`/workflows/${wf.id}/steps/${sendStep}`, { config: { templateId: second } });
    expect(changed.status).toBe(200);
    expect(changed.body.config).toEqual({ templateId: second });
    const refused = await s.api.patch(`/workflows/${wf.id}/steps/${sendStep}`, { config: { templateId: foreign } });
    expect([refused.status, refused.body.error?.errors?.map((e: { field: string }) => e.field)]).toEqual([422, ['config.templateId']]);
    const got = await s.api.get(`/workflows/${wf.id}`).expect(200);
    expect(got.body.steps.find((x: { id: string }) => x.id === sendStep).config).toEqual({ templateId: second });
  });

  it('enforces the branch rules on transitions and splices deleted steps', async () => {
    const wf = await workflow(s.api, 'branches');
    const cond = await step(s.api, wf.id, 'CONDITION', { field: 'data.plan', operator: 'equals', value: 'pro' });
    const wait = await step(s.api, wf.id, 'WAIT_FOR_EVENT', { eventName: 'paid', timeout: 60 });
    const exit = await step(s.api, wf.id, 'EXIT', { reason: 'done' });
    const delay = await step(s.api, wf.id, 'DELAY', { amount: 1, unit: 'hours' });
    await link(s.api, wf.id, wf.trigger, cond);
    expect((await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: wf.trigger, toStepId: exit })).status).toBe(409);
    expect((await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: cond, toStepId: wait })).body.error.errors[0].field).toBe('branch');
    await link(s.api, wf.id, cond, wait, { branch: 'yes' });
    expect((await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: cond, toStepId: exit, branch: 'yes' })).status).toBe(409);
    await link(s.api, wf.id, cond, delay, { branch: 'no' });
    expect((await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: wait, toStepId: exit })).body.error.errors[0].field).toBe('waitOutcome');
    await link(s.api, wf.id, wait, delay, { waitOutcome: 'EVENT' });
    expect((await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: delay, toStepId: exit, branch: 'yes' })).status).toBe(422);
    expect((await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: exit, toStepId: delay })).status).toBe(422);
    expect((await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: delay, toStepId: wf.trigger })).status).toBe(422);
    const otherWf = await workflow(s.api, 'elsewhere');
    const foreign = await s.api.post(`/workflows/${wf.id}/transitions`, { fromStepId: delay, toStepId: otherWf.trigger });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.errors[0].field).toBe('toStepId');
    await link(s.api, wf.id, delay, exit);

    // Splice the DELAY: both predecessors (cond "no", wait EVENT) now lead to EXIT with their own branch/outcome.
    await s.api.delete(`/workflows/${wf.id}/steps/${delay}?splice=true`).expect(204);
    const got = await s.api.get(`/workflows/${wf.id}`).expect(200);
    const edges = got.body.transitions.map((t: Record<string, unknown>) => [t.fromStepId, t.toStepId, t.branch, t.waitOutcome]);
    expect(edges).toEqual(
      expect.arrayContaining([
        [wf.trigger, cond, null, null],
        [cond, wait, 'yes', null],
        [cond, exit, 'no', null],
        [wait, exit, null, 'EVENT'],
      ]),
    );
    expect(edges).toHaveLength(4);
    // A CONDITION has two successors: it cannot be spliced.
    expect((await s.api.delete(`/workflows/${wf.id}/steps/${cond}?splice=true`)).status).toBe(409);
    const t = got.body.transitions[0].id;
    await s.api.delete(`/workflows/${wf.id}/transitions/${t}`).expect(204);
    await s.api.delete(`/workflows/${wf.id}/transitions/${t}`).expect(404);
  });

  it('keeps every workflow of another project out of sight', async () => {
    const wf = await workflow(s.api, 'private');
    const other = await s.newProject('intruder');
    await other.api.get(`/workflows/${wf.id}`).expect(404);
    await other.api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(404);
    await other.api.post(`/workflows/${wf.id}/steps`, { type: 'EXIT', config: {} }).expect(404);
    await other.api.get(`/workflows/${wf.id}/executions`).expect(404);
    await other.api.post(`/workflows/${wf.id}/executions/cancel-all`).expect(404);
    await other.api.delete(`/workflows/${wf.id}`).expect(404);
    const mine = await contact(s.api, 'tenant@example.com');
    const theirs = await workflow(other.api, 'theirs');
    const start = await other.api.post(`/workflows/${theirs.id}/executions`, { contactId: mine });
    expect(start.status).toBe(422);
    expect(start.body.error.errors[0].field).toBe('contactId');
    expect((await other.api.get('/workflows')).body.data.some((w: { id: string }) => w.id === wf.id)).toBe(false);
  });

  it('a tracked event starts the enabled workflow: SEND_EMAIL with contact, event and workflow variables', async () => {
    const tpl = await template(s.api, 'MARKETING');
    const wf = await workflow(s.api, 'trial.started');
    const send = await step(s.api, wf.id, 'SEND_EMAIL', { templateId: tpl });
    await link(s.api, wf.id, wf.trigger, send);
    await s.api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(200);
    await s.api.post('/v1/track', { email: 'ada@example.com', event: 'trial.started', data: { firstName: 'Ada', plan: { value: 'pro', persistent: false } } }).expect(200);
    const ex = await onlyExecution(s.api, wf.id);
    const done = await settled(s.api, wf.id, ex.id);
    expect(done).toMatchObject({ status: 'COMPLETED', exitReason: null, completedAt: expect.any(String) });
    expect(done.steps.map((r: { type: string; status: string }) => [r.type, r.status])).toEqual([
      ['TRIGGER', 'COMPLETED'],
      ['SEND_EMAIL', 'COMPLETED'],
    ]);
    const emailId = done.steps[1].output.emailId;
    const email = await s.read.emailSettled(emailId);
    expect(email.status).toBe('delivered');
    // Read in SQL: the stored Liquid source and render variables (internals no endpoint shows).
    const [{ body }] = await s.db.dataSource.query(`SELECT c.body, e.subject FROM emails e JOIN email_contents c ON c.id = e.content_id WHERE e.id = $1`, [emailId]);
    expect(body).toContain('{{firstName}}');
    expect(email.subject).toBe('Hi Ada');
    // Read in SQL, as above.
    const [{ variables }] = await s.db.dataSource.query(`SELECT variables FROM emails WHERE id = $1`, [emailId]);
    expect(variables).toEqual({ firstName: 'Ada', event: { firstName: 'Ada', plan: 'pro' }, workflow: {} });
    // A disabled workflow starts nothing.
    await s.api.patch(`/workflows/${wf.id}`, { enabled: false }).expect(200);
    await s.publicApi.post('/v1/track', { email: 'grace@example.com', event: 'trial.started' }).expect(200);
    await consumerPastEarlierEvents();
    expect((await s.api.get(`/workflows/${wf.id}/executions`).expect(200)).body.total).toBe(1);
  });

  it("an event's execution starts where its control steps lead, as the workflow's version stood: EXITED, or WAITING at a DELAY", async () => {
    const wf = await workflow(s.api, 'planned');
    const exit = await step(s.api, wf.id, 'EXIT', { reason: 'at once' });
    await link(s.api, wf.id, wf.trigger, exit);
    await s.api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(200);
    await s.api.post('/v1/track', { email: 'planned1@example.com', event: 'planned', data: { n: 1 } }).expect(200);
    const first = await onlyExecution(s.api, wf.id);
    const exited = (await s.api.get(`/workflows/${wf.id}/executions/${first.id}`).expect(200)).body;
    expect(exited).toMatchObject({ status: 'EXITED', exitReason: 'at once', currentStepId: exit, completedAt: expect.any(String) });
    expect(exited.steps.map((r: { type: string; status: string; output: unknown }) => [r.type, r.status, r.output])).toEqual([
      ['TRIGGER', 'COMPLETED', { eventName: 'planned' }],
      ['EXIT', 'COMPLETED', null],
    ]);
    // Ended within its start, it holds its records in its own row: none was written as a record row
    // (read in SQL: no API shows where records are stored).
    const recordRows = async (id: string) =>
      (await s.db.dataSource.query(`SELECT count(*)::int AS n FROM workflow_execution_steps WHERE execution_id = $1`, [id]))[0].n as number;
    expect(await recordRows(first.id)).toBe(0);
    // A new version (a DELAY before the EXIT) applies to the next event.
    const delay = await step(s.api, wf.id, 'DELAY', { amount: 1, unit: 'hours' });
    await s.api.delete(`/workflows/${wf.id}/transitions/${(await s.api.get(`/workflows/${wf.id}`)).body.transitions[0].id}`).expect(204);
    await link(s.api, wf.id, wf.trigger, delay);
    await link(s.api, wf.id, delay, exit);
    await s.api.post('/v1/track', { email: 'planned2@example.com', event: 'planned' }).expect(200);
    const second = await waitFor(async () => {
      const res = await s.api.get(`/workflows/${wf.id}/executions`, { status: 'WAITING' }).expect(200);
      return res.body.data[0];
    });
    expect(second).toMatchObject({ currentStepId: delay, completedAt: null });
    const waiting = (await s.api.get(`/workflows/${wf.id}/executions/${second.id}`).expect(200)).body;
    expect(waiting.steps.map((r: { type: string; status: string }) => [r.type, r.status])).toEqual([
      ['TRIGGER', 'COMPLETED'],
      ['DELAY', 'WAITING'],
    ]);
    expect(await recordRows(second.id)).toBe(2);
    // Read in SQL: the execution's version, steps run and stored event, which no endpoint shows.
    const [row] = await s.db.dataSource.query(
      `SELECT x.version, w.version AS current, x.steps_run, extract(epoch FROM x.wake_at - now())::float AS due_in, x.event
         FROM workflow_executions x JOIN workflows w ON w.id = x.workflow_id WHERE x.id = $1`,
      [second.id],
    );
    expect(row).toMatchObject({ version: row.current, steps_run: 2, event: {} });
    // Read in SQL, as above.
    expect(row.version).toBeGreaterThan((await s.db.dataSource.query(`SELECT version FROM workflow_executions WHERE id = $1`, [first.id]))[0].version);
    expect(row.due_in).toBeGreaterThan(3_500);
  });

  it('a MARKETING email to an unsubscribed contact is SKIPPED and the execution goes on', async () => {
    const tpl = await template(s.api, 'MARKETING');
    const wf = await workflow(s.api, 'skip.me');
    const send = await step(s.api, wf.id, 'SEND_EMAIL', { templateId: tpl });
    const exit = await step(s.api, wf.id, 'EXIT', { reason: 'after skip' });
    await link(s.api, wf.id, wf.trigger, send);
    await link(s.api, wf.id, send, exit);
    const id = await contact(s.api, 'unsub@example.com', {}, false);
    const start = await s.api.post(`/workflows/${wf.id}/executions`, { contactId: id }).expect(201);
    const done = await settled(s.api, wf.id, start.body.id);
    expect(done).toMatchObject({ status: 'EXITED', exitReason: 'after skip' });
    expect(done.steps[1]).toMatchObject({ type: 'SEND_EMAIL', status: 'SKIPPED', output: { skipped: 'unsubscribed' } });
  });

  it('CONDITION branches on contact, event and workflow fields; UPDATE_CONTACT writes data and subscription; EXIT ends with its reason', async () => {
    const wf = await workflow(s.api, 'upgrade');
    const byPlan = await step(s.api, wf.id, 'CONDITION', { field: 'data.seats', operator: 'gte', value: 10 });
    const byEvent = await step(s.api, wf.id, 'CONDITION', { field: 'event.source', operator: 'contains', value: 'ADS' });
    const byContext = await step(s.api, wf.id, 'CONDITION', { field: 'workflow.vip', operator: 'equals', value: true });
    const update = await step(s.api, wf.id, 'UPDATE_CONTACT', { updates: { tier: 'enterprise', trial: null }, subscriptionAction: 'unsubscribe' });
    const small = await step(s.api, wf.id, 'EXIT', { reason: 'small team' });
    const notAds = await step(s.api, wf.id, 'EXIT', { reason: 'organic' });
    await link(s.api, wf.id, wf.trigger, byPlan);
    await link(s.api, wf.id, byPlan, byEvent, { branch: 'yes' });
    await link(s.api, wf.id, byPlan, small, { branch: 'no' });
    await link(s.api, wf.id, byEvent, update, { branch: 'yes' });
    await link(s.api, wf.id, byEvent, notAds, { branch: 'no' });
    await link(s.api, wf.id, update, byContext);
    await s.api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(200);

    await s.api.post('/v1/track', { email: 'big@example.com', event: 'upgrade', data: { seats: 25, trial: true, source: 'google-ads' } }).expect(200);
    await s.api.post('/v1/track', { email: 'tiny@example.com', event: 'upgrade', data: { seats: 2, source: 'google-ads' } }).expect(200);
    await s.api.post('/v1/track', { email: 'organic@example.com', event: 'upgrade', data: { seats: 50, source: 'newsletter' } }).expect(200);
    const all = await waitFor(async () => {
      const res = await s.api.get(`/workflows/${wf.id}/executions`, { pageSize: 10 }).expect(200);
      return res.body.total === 3 && res.body.data.every((e: { status: string }) => e.status !== 'RUNNING' && e.status !== 'WAITING') ? res.body.data : undefined;
    }, 20_000);
    const big = await s.read.contactByEmail('big@example.com');
    const tiny = await s.read.contactByEmail('tiny@example.com');
    const organic = await s.read.contactByEmail('organic@example.com');
    const of = (id: string) => all.find((e: { contactId: string }) => e.contactId === id);
    expect(of(tiny!.id)).toMatchObject({ status: 'EXITED', exitReason: 'small team' });
    expect(of(organic!.id)).toMatchObject({ status: 'EXITED', exitReason: 'organic' });
    // The big one went through UPDATE_CONTACT, then the context condition (no "no" branch) completed it.
    const detail = await s.api.get(`/workflows/${wf.id}/executions/${of(big!.id).id}`).expect(200);
    expect(detail.body).toMatchObject({ status: 'COMPLETED' });
    expect(big!.data).toMatchObject({ tier: 'enterprise', seats: 25 });
    expect(big!.data).not.toHaveProperty('trial');
    expect(big!.subscribed).toBe(false);
    const events = await s.read.eventsOf(big!.id);
    expect(events.map((e) => e.name)).toContain('contact.unsubscribed');
    expect(detail.body.steps.map((r: { type: string }) => r.type)).toEqual(['TRIGGER', 'CONDITION', 'CONDITION', 'UPDATE_CONTACT', 'CONDITION']);
    expect(detail.body.steps[4].output).toEqual({ result: false });

    // Manual start with context: the workflow.* condition reads it.
    const vip = await contact(s.api, 'vip@example.com', { seats: 12 });
    const wf2 = await workflow(s.api, 'vip.check');
    const exitVip = await step(s.api, wf2.id, 'EXIT', { reason: 'vip' });
    const cond = await step(s.api, wf2.id, 'CONDITION', { field: 'workflow.vip', operator: 'equals', value: true });
    await link(s.api, wf2.id, wf2.trigger, cond);
    await link(s.api, wf2.id, cond, exitVip, { branch: 'yes' });
    const started = await s.api.post(`/workflows/${wf2.id}/executions`, { contactId: vip, context: { vip: true } }).expect(201);
    expect(started.body).toMatchObject({ workflowId: wf2.id, contactId: vip, context: { vip: true } });
    expect(await settled(s.api, wf2.id, started.body.id)).toMatchObject({ status: 'EXITED', exitReason: 'vip' });
  });

  it('re-entry: once ever without allowReentry; again after the previous execution ended with it; never two active', async () => {
    const once = await workflow(s.api, 'reenter', false);
    const again = await workflow(s.api, 'reenter', true);
    for (const wf of [once, again]) {
      const wait = await step(s.api, wf.id, 'WAIT_FOR_EVENT', { eventName: 'reenter.done' });
      await link(s.api, wf.id, wf.trigger, wait);
      await s.api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(200);
    }
    const track = (event: string) => s.api.post('/v1/track', { email: 're@example.com', event }).expect(200);
    await track('reenter');
    await track('reenter');
    await onlyExecution(s.api, once.id);
    await onlyExecution(s.api, again.id);
    await consumerPastEarlierEvents();
    for (const wf of [once, again]) expect((await s.api.get(`/workflows/${wf.id}/executions`).expect(200)).body.total).toBe(1);
    await track('reenter.done');
    for (const wf of [once, again]) {
      await waitFor(async () => ((await s.api.get(`/workflows/${wf.id}/executions`, { status: 'COMPLETED' })).body.total === 1 ? true : undefined));
    }
    await track('reenter');
    await waitFor(async () => ((await s.api.get(`/workflows/${again.id}/executions`)).body.total === 2 ? true : undefined));
    await consumerPastEarlierEvents();
    expect((await s.api.get(`/workflows/${once.id}/executions`).expect(200)).body.total).toBe(1);
  });

  it('WAIT_FOR_EVENT resumes on the first matching event after the wait began, or on its timeout', async () => {
    const wf = await workflow(s.api, 'checkout.started');
    const wait = await step(s.api, wf.id, 'WAIT_FOR_EVENT', { eventName: 'checkout.done', timeout: 2 });
    const paid = await step(s.api, wf.id, 'EXIT', { reason: 'paid' });
    const abandoned = await step(s.api, wf.id, 'EXIT', { reason: 'abandoned' });
    await link(s.api, wf.id, wf.trigger, wait);
    await link(s.api, wf.id, wait, paid, { waitOutcome: 'EVENT' });
    await link(s.api, wf.id, wait, abandoned, { waitOutcome: 'TIMEOUT' });
    await s.api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(200);
    // An event before the wait does not count.
    await s.api.post('/v1/track', { email: 'buyer@example.com', event: 'checkout.done' }).expect(200);
    await s.api.post('/v1/track', { email: 'buyer@example.com', event: 'checkout.started' }).expect(200);
    await s.api.post('/v1/track', { email: 'idle@example.com', event: 'checkout.started' }).expect(200);
    const buyer = (await s.read.contactByEmail('buyer@example.com'))!;
    const waiting = await waitFor(async () => {
      const res = await s.api.get(`/workflows/${wf.id}/executions`, { status: 'WAITING' }).expect(200);
      return res.body.data.find((e: { contactId: string }) => e.contactId === buyer.id);
    });
    expect(waiting.currentStepId).toBe(wait);
    await s.api.post('/v1/track', { email: 'buyer@example.com', event: 'checkout.done' }).expect(200);
    const done = await settled(s.api, wf.id, waiting.id);
    expect(done).toMatchObject({ status: 'EXITED', exitReason: 'paid' });
    expect(done.steps[1]).toMatchObject({ type: 'WAIT_FOR_EVENT', status: 'COMPLETED', output: { outcome: 'EVENT' } });
    const idle = (await s.read.contactByEmail('idle@example.com'))!;
    const idleEx = (await s.api.get(`/workflows/${wf.id}/executions`, { pageSize: 10 }).expect(200)).body.data.find((e: { contactId: string }) => e.contactId === idle.id);
    const timedOut = await settled(s.api, wf.id, idleEx.id, undefined, 20_000);
    expect(timedOut).toMatchObject({ status: 'EXITED', exitReason: 'abandoned' });
    expect(timedOut.steps[1].output).toEqual({ outcome: 'TIMEOUT' });
  });

  it('DELAY waits in the database; the sweep wakes it when due; cancel stops it for good', async () => {
    const wf = await workflow(s.api, 'delay.me');
    const delay = await step(s.api, wf.id, 'DELAY', { amount: 1, unit: 'days' });
    const exit = await step(s.api, wf.id, 'EXIT', { reason: 'after a day' });
    await link(s.api, wf.id, wf.trigger, delay);
    await link(s.api, wf.id, delay, exit);
    const a = await contact(s.api, 'delay-a@example.com');
    const b = await contact(s.api, 'delay-b@example.com');
    const exA = (await s.api.post(`/workflows/${wf.id}/executions`, { contactId: a }).expect(201)).body.id;
    const exB = (await s.api.post(`/workflows/${wf.id}/executions`, { contactId: b }).expect(201)).body.id;
    await settled(s.api, wf.id, exA, ['WAITING']);
    await settled(s.api, wf.id, exB, ['WAITING']);
    // Both are upcoming, due in a day, with the workflow's name; another project sees neither.
    const upcoming = (await s.api.get('/activity/upcoming').expect(200)).body.executions as Array<{ id: string; workflowName: string; workflowId: string; dueAt: string }>;
    for (const id of [exA, exB]) expect(upcoming).toContainEqual(expect.objectContaining({ id, workflowName: 'wf delay.me', workflowId: wf.id }));
    const dueIn = Date.parse(upcoming.find((u) => u.id === exA)!.dueAt) - Date.now();
    expect(dueIn).toBeGreaterThan(86_400_000 - 120_000);
    expect(dueIn).toBeLessThanOrEqual(86_400_000);
    const stranger = await s.newProject('upcoming-stranger');
    expect((await stranger.api.get('/activity/upcoming').expect(200)).body.executions).toEqual([]);
    expect((await s.api.post(`/workflows/${wf.id}/executions`, { contactId: a })).status).toBe(409);
    expect((await s.api.delete(`/workflows/${wf.id}`)).status).toBe(409);
    await s.api.delete(`/workflows/${wf.id}/executions/${exB}`).expect(204);
    expect((await s.api.delete(`/workflows/${wf.id}/executions/${exB}`)).status).toBe(409);
    // Time travel in SQL (no endpoint moves a due time): both due a second ago; only A resumes (the sweep wakes it).
    await s.db.dataSource.query(`UPDATE workflow_executions SET wake_at = now() - interval '10 seconds' WHERE id = ANY($1::uuid[])`, [[exA, exB]]);
    expect(await settled(s.api, wf.id, exA, undefined, 20_000)).toMatchObject({ status: 'EXITED', exitReason: 'after a day' });
    const b2 = await s.api.get(`/workflows/${wf.id}/executions/${exB}`).expect(200);
    expect(b2.body.status).toBe('CANCELLED');
    expect(b2.body.steps[1]).toMatchObject({ type: 'DELAY', status: 'CANCELLED' });
    await s.api.delete(`/workflows/${wf.id}`).expect(204);
  });

  it('executions read as people: contact email, waiting until, the sent email\'s subject, and the active count at each step (project-scoped)', async () => {
    const tpl = await template(s.api, 'TRANSACTIONAL');
    const wf = await workflow(s.api, 'people.view');
    const send = await step(s.api, wf.id, 'SEND_EMAIL', { templateId: tpl });
    const delay = await step(s.api, wf.id, 'DELAY', { amount: 1, unit: 'hours' });
    const wait = await step(s.api, wf.id, 'WAIT_FOR_EVENT', { eventName: 'replied' });
    await link(s.api, wf.id, wf.trigger, send);
    await link(s.api, wf.id, send, delay);
    await link(s.api, wf.id, delay, wait, {});
    const a = await contact(s.api, 'people-a@example.com', { firstName: 'Ada' });
    const b = await contact(s.api, 'people-b@example.com', { firstName: 'Bo' });
    expect((await s.api.get(`/workflows/${wf.id}/step-counts`).expect(200)).body).toEqual({ steps: [] });
    const exA = (await s.api.post(`/workflows/${wf.id}/executions`, { contactId: a }).expect(201)).body.id;
    const exB = (await s.api.post(`/workflows/${wf.id}/executions`, { contactId: b }).expect(201)).body.id;
    await settled(s.api, wf.id, exA, ['WAITING']);
    await settled(s.api, wf.id, exB, ['WAITING']);
    const list = (await s.api.get(`/workflows/${wf.id}/executions`).expect(200)).body.data as Array<{ id: string; contactEmail: string; waitingUntil: string; waitingFor: string | null; currentStepId: string }>;
    expect(list.map((x) => [x.id, x.contactEmail, x.currentStepId, x.waitingFor]).sort()).toEqual(
      [
        [exA, 'people-a@example.com', delay, null],
        [exB, 'people-b@example.com', delay, null],
      ].sort(),
    );
    for (const x of list) {
      const dueIn = Date.parse(x.waitingUntil) - Date.now();
      expect(dueIn).toBeGreaterThan(3_600_000 - 120_000);
      expect(dueIn).toBeLessThanOrEqual(3_600_000);
    }
    expect((await s.api.get(`/workflows/${wf.id}/step-counts`).expect(200)).body).toEqual({ steps: [{ stepId: delay, running: 0, waiting: 2 }] });
    // The execution page's step records carry the email the SEND_EMAIL step queued, with its rendered subject.
    const one = (await s.api.get(`/workflows/${wf.id}/executions/${exA}`).expect(200)).body;
    expect(one).toMatchObject({ contactEmail: 'people-a@example.com', status: 'WAITING', waitingUntil: list.find((x) => x.id === exA)!.waitingUntil });
    const emailId = one.steps[1].output.emailId;
    await s.read.emailSettled(emailId);
    const again = (await s.api.get(`/workflows/${wf.id}/executions/${exA}`).expect(200)).body;
    expect(again.steps.map((r: { type: string; email: unknown }) => [r.type, r.email])).toEqual([
      ['TRIGGER', null],
      ['SEND_EMAIL', { id: emailId, subject: 'Hi Ada', status: 'delivered' }],
      ['DELAY', null],
    ]);
    // Time travel in SQL: A's delay is due; it moves on to the wait for "replied", which has no timeout.
    await s.db.dataSource.query(`UPDATE workflow_executions SET wake_at = now() - interval '10 seconds' WHERE id = $1`, [exA]);
    await waitFor(async () => {
      const x = (await s.api.get(`/workflows/${wf.id}/executions/${exA}`).expect(200)).body;
      return x.currentStepId === wait && x.status === 'WAITING' ? x : undefined;
    }, 20_000).then((x) => expect(x).toMatchObject({ waitingUntil: null, waitingFor: 'replied' }));
    await s.api.delete(`/workflows/${wf.id}/executions/${exB}`).expect(204);
    expect((await s.api.get(`/workflows/${wf.id}/step-counts`).expect(200)).body).toEqual({ steps: [{ stepId: wait, running: 0, waiting: 1 }] });
    const ended = (await s.api.get(`/workflows/${wf.id}/executions?status=CANCELLED`).expect(200)).body.data[0];
    expect(ended).toMatchObject({ id: exB, contactEmail: 'people-b@example.com', waitingUntil: null, waitingFor: null });
    // Another project sees neither the counts nor the executions.
    const other = await s.newProject('counts-stranger');
    await other.api.get(`/workflows/${wf.id}/step-counts`).expect(404);
    await other.api.get(`/workflows/${wf.id}/executions/${exA}`).expect(404);
    await s.api.get('/workflows/not-a-uuid/step-counts').expect(404);
    await s.api.post(`/workflows/${wf.id}/executions/cancel-all`).expect(200);
  });

  it('wake-ups due together resume as a group: one event resumes the waits of three workflows, and overdue DELAYs swept together all go on', async () => {
    const who = await contact(s.api, 'group-wake@example.com');
    const waits: Array<{ wf: string; ex: string }> = [];
    for (const n of [1, 2, 3]) {
      const wf = await workflow(s.api, `group.wait.${n}`);
      const wait = await step(s.api, wf.id, 'WAIT_FOR_EVENT', { eventName: 'group.go' });
      const exit = await step(s.api, wf.id, 'EXIT', { reason: `went ${n}` });
      await link(s.api, wf.id, wf.trigger, wait);
      await link(s.api, wf.id, wait, exit, { waitOutcome: 'EVENT' });
      const ex = (await s.api.post(`/workflows/${wf.id}/executions`, { contactId: who }).expect(201)).body.id;
      await settled(s.api, wf.id, ex, ['WAITING']);
      waits.push({ wf: wf.id, ex });
    }
    await s.api.post('/v1/track', { email: 'group-wake@example.com', event: 'group.go' }).expect(200);
    const resumedAt = new Set<string>();
    for (const [i, { wf, ex }] of waits.entries()) {
      const done = await settled(s.api, wf, ex);
      expect(done).toMatchObject({ status: 'EXITED', exitReason: `went ${i + 1}` });
      expect(done.steps[1]).toMatchObject({ type: 'WAIT_FOR_EVENT', status: 'COMPLETED', output: { outcome: 'EVENT' } });
      resumedAt.add(done.steps[1].completedAt);
    }
    // One statement resumed all three (one transaction time); resumed one by one, or some left
    // to the sweep, they would differ.
    expect(resumedAt.size).toBe(1);

    const wf = await workflow(s.api, 'group.delay');
    const delay = await step(s.api, wf.id, 'DELAY', { amount: 1, unit: 'days' });
    const exit = await step(s.api, wf.id, 'EXIT', { reason: 'woken' });
    await link(s.api, wf.id, wf.trigger, delay);
    await link(s.api, wf.id, delay, exit);
    const delayed: string[] = [];
    for (const n of [1, 2, 3, 4]) {
      const ex = (await s.api.post(`/workflows/${wf.id}/executions`, { contactId: await contact(s.api, `group-delay-${n}@example.com`) }).expect(201)).body.id;
      await settled(s.api, wf.id, ex, ['WAITING']);
      delayed.push(ex);
    }
    // Time travel in SQL (no endpoint moves a due time): all four overdue, so one sweep wakes them together.
    await s.db.dataSource.query(`UPDATE workflow_executions SET wake_at = now() - interval '10 seconds' WHERE id = ANY($1::uuid[])`, [delayed]);
    const wokenAt = new Set<string>();
    for (const ex of delayed) {
      const done = await settled(s.api, wf.id, ex, undefined, 20_000);
      expect(done).toMatchObject({ status: 'EXITED', exitReason: 'woken' });
      expect(done.steps[1]).toMatchObject({ type: 'DELAY', status: 'COMPLETED' });
      expect(done.steps[1].output).toHaveProperty('resumedAt');
      wokenAt.add(done.steps[1].completedAt);
    }
    expect(wokenAt.size).toBe(1);
  });

  it('manual start: context at most 64 KB; cancel-all; list filters by status', async () => {
    const wf = await workflow(s.api, 'manual');
    const wait = await step(s.api, wf.id, 'WAIT_FOR_EVENT', { eventName: 'never' });
    await link(s.api, wf.id, wf.trigger, wait);
    const c1 = await contact(s.api, 'm1@example.com');
    const c2 = await contact(s.api, 'm2@example.com');
    const big = await s.api.post(`/workflows/${wf.id}/executions`, { contactId: c1, context: { blob: 'x'.repeat(70_000) } });
    expect(big.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'context' }] });
    expect((await s.api.get(`/workflows/${wf.id}/executions`).expect(200)).body.total).toBe(0);
    const e1 = (await s.api.post(`/workflows/${wf.id}/executions`, { contactId: c1, context: { a: 1 } }).expect(201)).body;
    expect(e1).toMatchObject({ status: 'RUNNING', context: { a: 1 }, steps: [] });
    await s.api.post(`/workflows/${wf.id}/executions`, { contactId: c2 }).expect(201);
    await waitFor(async () => ((await s.api.get(`/workflows/${wf.id}/executions`, { status: 'WAITING' })).body.total === 2 ? true : undefined));
    await s.api.get(`/workflows/${wf.id}/executions`, { status: 'BOGUS' }).expect(422);
    expect((await s.api.post(`/workflows/${wf.id}/executions/cancel-all`).expect(200)).body).toEqual({ cancelled: 2 });
    expect((await s.api.post(`/workflows/${wf.id}/executions/cancel-all`).expect(200)).body).toEqual({ cancelled: 0 });
    expect((await s.api.get(`/workflows/${wf.id}/executions`, { status: 'CANCELLED' })).body.total).toBe(2);
  });

  it('an execution that runs more than 1,000 steps FAILS', async () => {
    const wf = await workflow(s.api, 'loop');
    const a = await step(s.api, wf.id, 'CONDITION', { field: 'contact.email', operator: 'exists' });
    const b = await step(s.api, wf.id, 'CONDITION', { field: 'contact.email', operator: 'exists' });
    await link(s.api, wf.id, wf.trigger, a);
    await link(s.api, wf.id, a, b, { branch: 'yes' });
    await link(s.api, wf.id, b, a, { branch: 'yes' });
    const c = await contact(s.api, 'loop@example.com');
    const ex = (await s.api.post(`/workflows/${wf.id}/executions`, { contactId: c }).expect(201)).body.id;
    const done = await settled(s.api, wf.id, ex, undefined, 400_000);
    expect(done.status).toBe('FAILED');
    expect(done.steps).toHaveLength(1_001);
    expect(done.steps[1000]).toMatchObject({ status: 'FAILED', error: expect.stringContaining('1000') });
  }, 420_000);

  it('the usage endpoints list the workflows and steps that reference a template, an event or a field', async () => {
    const tpl = await template(s.api, 'TRANSACTIONAL');
    await contact(s.api, 'usage@example.com', { usageScore: 1, usageTier: 'b' });
    const wf = await workflow(s.api, 'usage.trigger');
    const send = await step(s.api, wf.id, 'SEND_EMAIL', { templateId: tpl });
    const wait = await step(s.api, wf.id, 'WAIT_FOR_EVENT', { eventName: 'usage.wait' });
    await step(s.api, wf.id, 'CONDITION', { field: 'data.usageScore', operator: 'gt', value: 3 });
    await step(s.api, wf.id, 'UPDATE_CONTACT', { updates: { usageTier: 'a' } });
    const templateUsage = await s.api.get(`/templates/${tpl}/usage`).expect(200);
    expect(templateUsage.body).toEqual({ segments: [], campaigns: [], workflows: [{ id: wf.id, name: 'wf usage.trigger', stepId: send }] });
    const me = { id: wf.id, name: 'wf usage.trigger' };
    expect((await s.api.get('/events/usage.trigger/usage').expect(200)).body.workflows).toEqual([me]);
    expect((await s.api.get('/events/usage.wait/usage').expect(200)).body.workflows).toEqual([me]);
    expect((await s.api.get('/contacts/fields/data.usageScore/usage').expect(200)).body.workflows).toEqual([me]);
    expect((await s.api.get('/contacts/fields/data.usageTier/usage').expect(200)).body.workflows).toEqual([me]);
    const other = await s.newProject('usage other');
    expect((await other.api.get('/events/usage.trigger/usage').expect(200)).body.workflows).toEqual([]);
    expect(wait).toEqual(expect.any(String));
  });

  it('GET /workflows/fields lists contact, event and workflow fields', async () => {
    const res = await s.api.get('/workflows/fields').expect(200);
    const fields = res.body.fields as Array<{ field: string; type: string; source: string }>;
    expect(fields).toEqual(expect.arrayContaining([
      { field: 'contact.email', type: 'string', source: 'contact' },
      { field: 'contact.subscribed', type: 'boolean', source: 'contact' },
      { field: 'data.seats', type: 'number', source: 'contact' },
      { field: 'event.source', type: 'string', source: 'event' },
      { field: 'workflow.vip', type: 'boolean', source: 'workflow' },
    ]));
  });
});

/** A workflow triggered by /v1/track on a ROLE=api process runs on a ROLE=worker process (the compose topology; two processes need a shared PostgreSQL server, so services mode only). */
if (TEST_MODE === 'services') describe('workflow triggers across processes', () => {

  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await createServicesDatabase();
  });
  afterAll(() => database?.drop());

  it('starts and finishes executions for events tracked on the API process', async () => {
    await withApiAndWorker(database.url, async ({ api: base }) => {
      const project = await createProject(base);
      const auth = { Authorization: `Bearer ${project.secretKey}` };
      const wf = (await request(base).post('/workflows').set(auth).send({ name: 'far', eventName: 'far.signup' }).expect(201)).body;
      const update = (await request(base).post(`/workflows/${wf.id}/steps`).set(auth).send({ type: 'UPDATE_CONTACT', config: { updates: { onboarded: true } } }).expect(201)).body;
      await request(base).post(`/workflows/${wf.id}/transitions`).set(auth).send({ fromStepId: wf.steps[0].id, toStepId: update.id }).expect(201);
      await request(base).patch(`/workflows/${wf.id}`).set(auth).send({ enabled: true }).expect(200);
      for (const email of ['far1@example.com', 'far2@example.com']) {
        await request(base).post('/v1/track').set('Authorization', `Bearer ${project.publicKey}`).send({ email, event: 'far.signup' }).expect(200);
      }
      const done = await waitFor(async () => {
        const res = await request(base).get(`/workflows/${wf.id}/executions`).query({ status: 'COMPLETED' }).set(auth).expect(200);
        return res.body.total === 2 ? res.body.data : undefined;
      }, 30_000);
      expect(done).toHaveLength(2);
      const contacts = (await request(base).get('/contacts').set(auth).expect(200)).body.data;
      for (const c of contacts) expect(c.data).toEqual({ onboarded: true });
    });
  }, 300_000);
});
