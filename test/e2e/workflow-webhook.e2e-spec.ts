import { createHmac } from 'node:crypto';
import { HttpReceiver, startHttpReceiver } from '../support/http-receiver';
import { ApiClient, apiClient, bearer, sessionHeaders, useFixture, useSession, waitFor } from '../support/session';

/** The WEBHOOK step against a loopback receiver: rendering, signature, retries, and the private-address guard. */

async function webhookWorkflow(api: ApiClient, eventName: string, config: Record<string, unknown>) {
  const wf = (await api.post('/workflows', { name: eventName, eventName }).expect(201)).body;
  const hook = (await api.post(`/workflows/${wf.id}/steps`, { type: 'WEBHOOK', config }).expect(201)).body.id;
  await api.post(`/workflows/${wf.id}/transitions`, { fromStepId: wf.steps[0].id, toStepId: hook }).expect(201);
  await api.patch(`/workflows/${wf.id}`, { enabled: true }).expect(200);
  return wf.id as string;
}

/** A series' value in a `/metrics` scrape (0 while it has never been counted). */
function metricValue(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function finished(api: ApiClient, wf: string, timeoutMs = 30_000) {
  const ex = await waitFor(async () => {
    const res = await api.get(`/workflows/${wf}/executions`).expect(200);
    const e = res.body.data[0];
    return e && e.status !== 'RUNNING' && e.status !== 'WAITING' ? e : undefined;
  }, timeoutMs);
  return (await api.get(`/workflows/${wf}/executions/${ex.id}`).expect(200)).body;
}

describe('workflow WEBHOOK step (WEBHOOK_ALLOW_PRIVATE=true)', () => {
  const hooks = useFixture<HttpReceiver>(() => startHttpReceiver(), (r) => r.close());
  const s = useSession({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  let api: ApiClient;
  let secret: string;

  beforeAll(async () => {
    // A project created through the dashboard shows its webhook secret with its keys.
    const created = await apiClient(s.http, sessionHeaders(s.project.cookie)).post('/users/@me/projects', { name: 'hooks' }).expect(201);
    expect(created.body.webhookSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    secret = created.body.webhookSecret;
    api = apiClient(s.http, bearer(created.body.secret));
  });

  it('sends the rendered request, signed with the project webhook secret, and records the response', async () => {
    const series = [
      'mailroom_webhook_deliveries_total{outcome="2xx"}',
      'mailroom_workflow_step_outcomes_total{type="WEBHOOK",outcome="COMPLETED"}',
      'mailroom_workflow_step_outcomes_total{type="TRIGGER",outcome="COMPLETED"}',
    ];
    const scrape = async () => (await s.anonymous.get('/metrics').expect(200)).text;
    const before = await scrape();
    hooks.respond('/signed', { status: 200, body: { received: true } });
    const wf = await webhookWorkflow(api, 'hook.signed', {
      url: `${hooks.url('/signed')}?email={{contact.email}}`,
      method: 'POST',
      headers: { 'X-Plan': '{{event.plan}}', 'X-Signature': 'forged' },
    });
    await api.post('/v1/track', { email: 'hook@example.com', event: 'hook.signed', data: { plan: 'pro' } }).expect(200);
    const req = await hooks.waitForRequest((r) => r.path === '/signed');
    expect(req.query.get('email')).toBe('hook@example.com');
    expect(req.headers['x-plan']).toBe('pro');
    const ts = req.headers['x-mailroom-timestamp'] as string;
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${req.text}`).digest('hex')}`;
    expect(req.headers['x-signature']).toBe(expected);
    const ex = await finished(api, wf);
    expect(req.json).toEqual({
      contact: { id: ex.contactId, email: 'hook@example.com', subscribed: true, data: { plan: 'pro' } },
      workflow: { id: wf, name: 'hook.signed' },
      execution: { id: ex.id, context: {} },
      event: { plan: 'pro' },
    });
    expect(ex.status).toBe('COMPLETED');
    expect(ex.steps[1]).toMatchObject({ type: 'WEBHOOK', status: 'COMPLETED', output: { status: 200, body: '{"received":true}' } });
    // The delivery and the step's outcome count in /metrics as they happen.
    const after = await waitFor(async () => {
      const text = await scrape();
      return series.every((name) => metricValue(text, name) > metricValue(before, name)) ? text : undefined;
    });
    expect(series.map((name) => metricValue(after, name) - metricValue(before, name))).toEqual([1, 1, 1]);
  });

  it("sends the default body {contact, workflow: {id, name}, execution: {id, context}, event}; in Liquid `workflow` stays the execution's context", async () => {
    hooks.respond('/default', { status: 200 });
    const wf = await webhookWorkflow(api, 'hook.default', { url: hooks.url('/default'), method: 'POST', headers: { 'X-Source': '{{workflow.source}}', 'X-Execution': '{{execution.id}}' } });
    const contactId = (await api.post('/contacts', { email: 'default@example.com' }).expect(201)).body.id;
    const started = (await api.post(`/workflows/${wf}/executions`, { contactId, context: { source: 'manual', n: 2 } }).expect(201)).body;
    const req = await hooks.waitForRequest((r) => r.path === '/default');
    expect(req.json).toEqual({
      contact: { id: contactId, email: 'default@example.com', subscribed: true, data: {} },
      workflow: { id: wf, name: 'hook.default' },
      execution: { id: started.id, context: { source: 'manual', n: 2 } },
      event: {},
    });
    expect(req.headers['x-source']).toBe('manual');
    expect(req.headers['x-execution']).toBe(started.id);
    expect((await finished(api, wf)).status).toBe('COMPLETED');
  });

  it('retries 5xx with backoff, then succeeds; 4xx fails at once', async () => {
    hooks.respondOnce('/flaky', { status: 503 });
    hooks.respondOnce('/flaky', { status: 500 });
    hooks.respond('/flaky', { status: 204 });
    hooks.respond('/bad', { status: 404, body: 'no such hook' });
    const flaky = await webhookWorkflow(api, 'hook.flaky', { url: hooks.url('/flaky'), method: 'PUT', body: { id: '{{contact.id}}' } });
    const bad = await webhookWorkflow(api, 'hook.bad', { url: hooks.url('/bad'), method: 'DELETE' });
    await api.post('/v1/track', { email: 'flaky@example.com', event: 'hook.flaky' }).expect(200);
    await api.post('/v1/track', { email: 'bad@example.com', event: 'hook.bad' }).expect(200);
    const ok = await finished(api, flaky);
    expect(ok.status).toBe('COMPLETED');
    const tries = hooks.received('/flaky');
    expect(tries).toHaveLength(3);
    expect(tries[2].json).toEqual({ id: ok.contactId });
    expect(tries[1].receivedAt.getTime() - tries[0].receivedAt.getTime()).toBeGreaterThanOrEqual(900);
    const failed = await finished(api, bad);
    expect(failed.status).toBe('FAILED');
    expect(failed.steps[1]).toMatchObject({ status: 'FAILED', output: { status: 404, body: 'no such hook' }, error: 'webhook answered 404' });
    expect(hooks.received('/bad')).toHaveLength(1);
  });

  it('gives up after 3 retries of a 5xx: the execution FAILS', async () => {
    hooks.respond('/down', { status: 502 });
    const wf = await webhookWorkflow(api, 'hook.down', { url: hooks.url('/down'), method: 'POST' });
    await api.post('/v1/track', { email: 'down@example.com', event: 'hook.down' }).expect(200);
    const ex = await finished(api, wf, 40_000);
    expect(ex.status).toBe('FAILED');
    expect(ex.steps[1]).toMatchObject({ status: 'FAILED', error: 'webhook answered 502' });
    expect(hooks.received('/down')).toHaveLength(4);
  }, 60_000);
});

describe('workflow WEBHOOK step (private addresses refused)', () => {
  const hooks = useFixture<HttpReceiver>(() => startHttpReceiver(), (r) => r.close());
  const s = useSession();

  it('refuses loopback by IP, by IPv4-mapped IPv6 and by a name resolving to it, and sends nothing', async () => {
    const port = hooks.port;
    const urls = [`http://127.0.0.1:${port}/a`, `http://[::ffff:127.0.0.1]:${port}/b`, `http://localhost:${port}/c`, `http://[::1]:${port}/d`];
    for (const [i, url] of urls.entries()) {
      const wf = await webhookWorkflow(s.api, `private.${i}`, { url, method: 'POST' });
      await s.api.post('/v1/track', { email: `p${i}@example.com`, event: `private.${i}` }).expect(200);
      const ex = await finished(s.api, wf);
      expect({ url, status: ex.status, error: ex.steps[1]?.error }).toMatchObject({ url, status: 'FAILED', error: 'webhook refused: the destination is not allowed' });
    }
    expect(hooks.requests).toHaveLength(0);
  });
});
