import request from 'supertest';
import { startTestApp, TestApp } from '../support/app';

// Not on the session fixture: each test starts the app with its own deployment configuration and reads it anonymously (no project involved).
describe('GET /config', () => {
  let app: TestApp;
  afterEach(() => app?.close());

  it('reports the feature flags without authentication', async () => {
    app = await startTestApp();
    const res = await request(app.http).get('/config').expect(200);
    expect(res.body).toMatchObject({ signupEnabled: true, billing: false, oauthProviders: [], transport: 'outbox', tracking: true, uploads: true, uploadStorage: 'local', webhooks: true, mcp: true, telemetry: false, smtp: { submission: false, inbound: false, submissionPort: null, submissionTlsPort: null }, verpBounces: false, topics: true, previews: true });
    expect(JSON.stringify(res.body)).not.toContain(app.config.appSecret);
  });

  it('follows the deployment: signups off, Stripe and S3 configured', async () => {
    app = await startTestApp({ SIGNUP_DISABLED: 'true', STRIPE_SECRET_KEY: 'sk_test_config', S3_BUCKET: 'images', S3_ENDPOINT: 'http://127.0.0.1:9' });
    const res = await request(app.http).get('/config').expect(200);
    expect(res.body).toMatchObject({ signupEnabled: false, billing: true, uploadStorage: 's3' });
    expect(JSON.stringify(res.body)).not.toContain('sk_test_config');
  });
});
