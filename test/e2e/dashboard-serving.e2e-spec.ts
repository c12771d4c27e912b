import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, TestApp } from '../support/app';

/** A stand-in for Vite's output: an index page and one hashed asset (no web build needed). */
function fixtureBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><script type="module" src="/app/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>');
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), 'console.log("dashboard");');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

function expectStrictCsp(header: string | undefined): void {
  expect(header).toBeDefined();
  const directives = Object.fromEntries(header!.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  expect(directives['script-src']).toEqual(["'self'"]);
  expect(directives['connect-src']).toEqual(["'self'"]);
  expect(directives['default-src']).toEqual(["'self'"]);
  expect(directives['frame-ancestors']).toEqual(["'none'"]);
  expect(directives['object-src']).toEqual(["'none'"]);
}

// Not on the session fixture: it checks how the app serves the dashboard's static files (per WEB_DIST_DIR) to anonymous browsers; no project involved.
describe('dashboard serving under /app/', () => {
  let app: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = fixtureBuild();
    app = await startTestApp({ WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('redirects / and /app to /app/ (keeping the query)', async () => {
    const root = await request(app.http).get('/').expect(302);
    expect(root.headers.location).toBe('/app/');
    const bare = await request(app.http).get('/app?next=%2Fcontacts').expect(301);
    expect(bare.headers.location).toBe('/app/?next=%2Fcontacts');
  });

  it('serves index.html at /app/ with no-cache and a strict CSP', async () => {
    const res = await request(app.http).get('/app/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
    expectStrictCsp(res.headers['content-security-policy']);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('falls back to index.html for client routes inside /app/ only', async () => {
    for (const path of ['/app/login', '/app/projects/91bb/contacts', '/app/projects/91bb/contacts?search=a%40b', '/app/deep/ly/nested/']) {
      const res = await request(app.http).get(path).expect(200);
      expect(res.text).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      expectStrictCsp(res.headers['content-security-policy']);
    }
    const head = await request(app.http).head('/app/contacts').expect(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    // Outside the prefix an unknown path stays the API's 404 envelope.
    const outside = await request(app.http).get('/application/login').expect(404);
    expect(outside.body.error.code).toBe('NOT_FOUND');
    // Writes are not the dashboard's: they reach the API's router.
    const post = await request(app.http).post('/app/login').send({}).expect(404);
    expect(post.body.error.code).toBe('NOT_FOUND');
  });

  it('serves hashed assets as immutable for a year and 404s a missing one instead of HTML', async () => {
    const asset = await request(app.http).get('/app/assets/index-Ab12Cd34.js').expect(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectStrictCsp(asset.headers['content-security-policy']);
    const missing = await request(app.http).get('/app/assets/index-Old00000.js').expect(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
    expect(missing.text).not.toContain('<div id="root">');
    const other = await request(app.http).get('/app/favicon.svg').expect(200);
    expect(other.headers['cache-control']).toBe('no-cache');
    await request(app.http).get('/app/../package.json').expect((res) => expect(res.text).not.toContain('"name": "mailroom"'));
  });

  it('leaves the API, its 404s and /docs untouched', async () => {
    const health = await request(app.http).get('/health').expect(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect(health.headers['content-security-policy']).toBeUndefined();
    const v1 = await request(app.http).get('/v1/ping').expect(401);
    expect(v1.body.error.code).toBe('INVALID_API_KEY');
    const unknown = await request(app.http).get('/v1/nothing-here').expect(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const openapi = await request(app.http).get('/docs/openapi.json').expect(200);
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.body.paths).some((p) => p.startsWith('/app'))).toBe(false);
    await request(app.http).get('/docs').expect(200);
    const config = await request(app.http).get('/config').expect(200);
    expect(config.body).toHaveProperty('signupEnabled');
  });

  it('counts dashboard requests under one metrics label, whatever the client route', async () => {
    await request(app.http).get('/app/some/client/route').expect(200);
    const metrics = await request(app.http).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/http_requests_total\{[^}]*route="\/app"[^}]*status="200"/);
    expect(metrics.text).not.toContain('/app/some/client/route');
  });
});

describe('dashboard serving without a build', () => {
  let app: TestApp;
  afterAll(() => app?.close());

  it('answers 503 saying to run npm run build, and the API still works', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'mailroom-web-missing-'));
    try {
      app = await startTestApp({ WEB_DIST_DIR: empty });
      for (const path of ['/app/', '/app/login', '/app/assets/index-Ab12Cd34.js']) {
        const res = await request(app.http).get(path).expect(503);
        expect(res.text).toContain('npm run build');
        expect(res.headers['cache-control']).toBe('no-store');
      }
      await request(app.http).get('/').expect(302);
      await request(app.http).get('/health').expect(200);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
