import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createProject, createServicesDatabase, TEST_MODE, waitFor } from '../support/app';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { freePort, spawnService, untilListening, type SpawnedService } from '../support/service-process';
import { SmtpReceiver } from '../support/smtp-receiver';

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

/*
 * The service as its own process (instrumentation must load before the modules it patches),
 * exporting to a loopback OTLP/HTTP receiver in JSON, in the test mode's topology (embedded
 * database and queues, or PostgreSQL and Redis).
 */
describe('OpenTelemetry export (OTLP/HTTP)', () => {
  let otlp: OtlpReceiver;
  let smtp: SmtpReceiver;
  let service: SpawnedService;
  let base: string;
  let dataDir: string;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let hooks: Server;
  let hookUrl: string;

  beforeAll(async () => {
    hooks = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
    otlp = await OtlpReceiver.start();
    smtp = await SmtpReceiver.start();
    dataDir = mkdtempSync(join(tmpdir(), 'mailroom-otel-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    if (TEST_MODE === 'services') database = await createServicesDatabase();
    const servicesEnv: Record<string, string> = database
      ? { DATABASE_URL: database.url, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `mrtest:${process.pid}:${randomBytes(4).toString('hex')}` }
      : {};
    service = spawnService({
      ...servicesEnv,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: smtp.url,
      DOMAIN_VERIFICATION: 'off',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
    });
    await untilListening(service);
  }, 180_000);

  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGINT');
      await service.exited;
    }
    await Promise.all([otlp?.close(), smtp?.close(), new Promise((resolve) => hooks?.close(resolve))]);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports telemetry on in /config', async () => {
    const res = await request(base).get('/config').expect(200);
    expect(res.body.telemetry).toBe(true);
  });

  it('exports one trace per /v1/send: the request, its SQL, the queue job and the SMTP hand-over, with the ids', async () => {
    const project = await createProject(base);
    const res = await request(base)
      .post('/v1/send')
      .set('Authorization', `Bearer ${project.secretKey}`)
      .send({ to: 'ann@example.org', from: 'hello@acme.test', subject: 'Traced', body: '<p>Hi</p>' })
      .expect(200);
    const emailId: string = res.body.data.emails[0].email;
    await smtp.waitFor('ann@example.org');

    const handover = await waitFor(async () => otlp.spans.find((s) => s.name === 'email.handover' && s.attributes['mailroom.email_id'] === emailId), 30_000, 100);
    expect(handover.attributes).toMatchObject({ 'mailroom.project_id': project.id, 'mailroom.transport': 'smtp' });
    const inTrace = (): ReceivedSpan[] => otlp.spans.filter((s) => s.traceId === handover.traceId);
    const byId = (id: string | undefined) => inTrace().find((s) => s.spanId === id);

    const job = await waitFor(async () => inTrace().find((s) => s.name === 'email-send process'), 30_000, 100);
    expect(job.attributes).toMatchObject({ 'messaging.system': 'bullmq', 'messaging.destination.name': 'email-send', 'mailroom.email_id': emailId });
    // The hand-over happens inside the job (possibly below other spans of it).
    let up = byId(handover.parentSpanId);
    while (up && up.spanId !== job.spanId) up = byId(up.parentSpanId);
    expect(up?.spanId).toBe(job.spanId);

    const requestSpan = await waitFor(
      async () => inTrace().find((s) => s.kind === SPAN_KIND_SERVER && s.scope.includes('instrumentation-http') && String(s.attributes['url.path'] ?? s.attributes['http.target']).startsWith('/v1/send')),
      30_000,
      100,
    );
    expect(requestSpan.parentSpanId).toBeUndefined();
    expect(requestSpan.attributes['mailroom.project_id']).toBe(project.id);
    expect(requestSpan.resource).toMatchObject({ 'service.name': 'mailroom', 'mailroom.role': 'all' });

    // The job is the request's descendant: the trace crossed the queue in the job's payload.
    up = byId(job.parentSpanId);
    while (up && up.spanId !== requestSpan.spanId) up = byId(up.parentSpanId);
    expect(up?.spanId).toBe(requestSpan.spanId);

    const sql = await waitFor(async () => {
      const statements = inTrace().filter((s) => s.scope.includes('instrumentation-pg') && (s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql'));
      return statements.some((s) => s.spanId !== requestSpan.spanId) ? statements : undefined;
    }, 30_000, 100);
    expect(sql.length).toBeGreaterThan(0);
  }, 90_000);

  it('exports a span per webhook delivery attempt, with the outgoing request as its child, from a request and from the queue', async () => {
    const project = await createProject(base);
    const auth = `Bearer ${project.secretKey}`;
    const hook = await request(base).post('/webhooks').set('Authorization', auth).send({ url: hookUrl, events: ['*'] }).expect(201);
    const webhookId: string = hook.body.id;
    await request(base).post(`/webhooks/${webhookId}/test`).set('Authorization', auth).expect(200);
    await request(base).post('/v1/track').set('Authorization', auth).send({ email: 'bo@example.org', event: 'purchase' }).expect(200);

    const deliveries = await waitFor(async () => {
      const found = otlp.spans.filter((s) => s.name === 'webhook.deliver' && s.attributes['mailroom.webhook_id'] === webhookId);
      return found.length >= 2 ? found : undefined;
    }, 30_000, 100);
    for (const d of deliveries) {
      expect(d.attributes).toMatchObject({ 'mailroom.project_id': project.id, 'mailroom.webhook.outcome': 'succeeded' });
      expect(typeof d.attributes['mailroom.delivery_id']).toBe('string');
      const outgoing = await waitFor(async () => otlp.spans.find((s) => s.parentSpanId === d.spanId && s.kind === SPAN_KIND_CLIENT && s.scope.includes('instrumentation-undici')), 30_000, 100);
      expect(outgoing.traceId).toBe(d.traceId);
    }
    // The queued delivery runs in its job's span (exported when the job ends, after the attempt's).
    const parentNames = () => deliveries.map((d) => otlp.spans.find((s) => s.spanId === d.parentSpanId)?.name);
    await waitFor(async () => (parentNames().includes('webhook-delivery process') ? true : undefined), 30_000, 100);
  }, 60_000);

  it('exports the /metrics series over OTLP', async () => {
    await waitFor(async () => (otlp.metricNames.has('http_requests_total') && otlp.metricNames.has('mailroom_emails_total') ? true : undefined), 30_000, 100);
    expect(otlp.metricNames.has('mailroom_email_handover_seconds')).toBe(true);
  }, 40_000);
});
