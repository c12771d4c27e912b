import { ReadinessRegistry } from '../../src/platform/health/readiness.registry';
import { apiClient, bearer, useSession } from '../support/session';

describe('operations endpoints', () => {
  const s = useSession();

  it('answers liveness without credentials', async () => {
    const res = await s.anonymous.get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('reports database, queue and transport ready', async () => {
    // The first probes arrive together (an orchestrator and a load balancer): each sees the queue up,
    // none finds the lazily opened Redis connection half-open.
    const first = await Promise.all(Array.from({ length: 5 }, () => s.anonymous.get('/health/ready')));
    expect(first.map((r) => [r.status, r.body.info?.queue?.status])).toEqual(Array(5).fill([200, 'up']));
    const res = await s.anonymous.get('/health/ready').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.info.database.status).toBe('up');
    expect(res.body.info.queue.status).toBe('up');
    expect(res.body.info.transport.status).toBe('up');
  });

  it('answers 503 naming the failing check when a registered dependency is down', async () => {
    const registry = s.app.runtime.app.get(ReadinessRegistry);
    registry.register('broken-dependency', async () => {
      throw new Error('connection refused');
    });
    try {
      const res = await s.anonymous.get('/health/ready').expect(503);
      expect(res.body.status).toBe('error');
      expect(res.body.error['broken-dependency'].status).toBe('down');
      expect(res.body.info.database.status).toBe('up');
    } finally {
      registry.unregister('broken-dependency');
    }
  });

  it('exposes Prometheus metrics with the route pattern as label', async () => {
    await s.api.get('/v1/ping').expect(200);
    await s.anonymous.get('/v1/ping').expect(401);
    const res = await s.anonymous.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/process_cpu_user_seconds_total/);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/v1\/ping",status="200"\} \d+/);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/v1\/ping",status="401"\} \d+/);
    expect(res.text).toMatch(/http_request_duration_seconds_bucket\{le="[\d.]+",method="GET",route="\/v1\/ping",status="200"\}/);
  });

  it('keeps unmatched paths out of the route label', async () => {
    await s.anonymous.get('/no/such/route/123').expect(404);
    const res = await s.anonymous.get('/metrics').expect(200);
    expect(res.text).not.toContain('/no/such/route');
    expect(res.text).toMatch(/route="unmatched",status="404"/);
  });

  it('serves the OpenAPI document generated from the controllers, with auth schemes', async () => {
    const res = await s.anonymous.get('/docs/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.components.securitySchemes['secret-key']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(res.body.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'mailroom_session' });
    expect(res.body.paths['/v1/ping'].get.security).toEqual([{ 'secret-key': [] }, { session: [] }]);
    expect(res.body.paths['/health'].get.security).toEqual([]);
    expect(res.body.paths['/metrics']).toBeUndefined();
  });

  it('serves the Swagger UI with its assets locally', async () => {
    const page = await s.anonymous.get('/docs').redirects(1).expect(200);
    expect(page.text).toContain('swagger-ui');
    await s.anonymous.get('/docs/swagger-ui-bundle.js').expect(200);
  });
});

describe('METRICS_TOKEN', () => {
  const token = 'scrape-me-0123456789';
  const s = useSession({ METRICS_TOKEN: token });

  it('keeps /metrics to scrapers that send the token as a bearer credential', async () => {
    for (const header of [undefined, 'Bearer wrong-token-0123456789', token]) {
      const res = await apiClient(s.http, header ? { Authorization: header } : {}).get('/metrics').expect(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', statusCode: 401 } });
      expect(res.text).not.toMatch(/process_cpu_user_seconds_total/);
    }
    const res = await apiClient(s.http, bearer(token)).get('/metrics').expect(200);
    expect(res.text).toMatch(/process_cpu_user_seconds_total/);
  });
});
