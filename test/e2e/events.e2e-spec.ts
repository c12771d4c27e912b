import request from 'supertest';
import { createProject, startTestApp, TestApp, TestProject } from '../support/app';

describe('events', () => {
  let app: TestApp;
  let project: TestProject;

  beforeAll(async () => {
    app = await startTestApp();
    project = await createProject(app.http);
  });
  afterAll(() => app?.close());

  const track = (body: unknown, key = project.publicKey) => request(app.http).post('/v1/track').set('Authorization', `Bearer ${key}`).send(body as object);

  it('tracks an event and creates a subscribed contact', async () => {
    const res = await track({ email: ' Ada@Example.com ', event: 'signup', data: { plan: 'pro' } }).expect(200);
    expect(res.body).toEqual({ success: true, data: { contact: expect.stringMatching(/^cnt_[0-9a-f]{32}$/), event: expect.any(String), timestamp: expect.any(String) } });
    const again = await track({ email: 'ada@example.com', event: 'signup' }, project.secretKey).expect(200);
    expect(again.body.data.contact).toBe(res.body.data.contact);
    expect(again.body.data.event).not.toBe(res.body.data.event);
  });
});
