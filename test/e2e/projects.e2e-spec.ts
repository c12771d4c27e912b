import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { BootstrapService } from '../../src/modules/projects/bootstrap.service';
import { createProject, startTestApp, TestApp, TestProject } from '../support/app';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

async function signup(app: TestApp): Promise<{ email: string; cookie: string; id: string }> {
  const email = `member-${randomBytes(6).toString('hex')}@example.com`;
  const res = await request(app.http).post('/auth/signup').send({ email, password: 'correct horse battery' }).expect(201);
  return { email, cookie: [res.headers['set-cookie']].flat()[0].split(';')[0], id: res.body.id };
}

describe('projects', () => {
  let app: TestApp;
  let owner: TestProject;

  beforeAll(async () => {
    app = await startTestApp();
    owner = await createProject(app.http, 'Main');
  });
  afterAll(() => app?.close());

  const asOwner = (req: request.Test) => req.set('Cookie', owner.cookie).set(XHR);

  it('creates a project with both keys in full once, and lists it with prefixes only', async () => {
    expect(owner.secretKey).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(owner.publicKey).toMatch(/^pk_[0-9a-f]{64}$/);
    const list = await asOwner(request(app.http).get('/users/@me/projects')).expect(200);
    const item = list.body.find((p: { id: string }) => p.id === owner.id);
    expect(item).toMatchObject({ name: 'Main', secretPrefix: owner.secretKey.slice(0, 10), publicPrefix: owner.publicKey.slice(0, 10), role: 'OWNER', tracking: 'ENABLED', language: 'en', disabled: false, disabledReason: null });
    expect(item.secret).toBeUndefined();
    expect(item.public).toBeUndefined();
  });

  it('updates settings and validates them', async () => {
    const res = await asOwner(request(app.http).patch(`/users/@me/projects/${owner.id}`)).send({ name: 'Renamed', tracking: 'MARKETING_ONLY', language: 'de' }).expect(200);
    expect(res.body).toMatchObject({ id: owner.id, name: 'Renamed', tracking: 'MARKETING_ONLY', language: 'de' });
    const bad = await asOwner(request(app.http).patch(`/users/@me/projects/${owner.id}`)).send({ tracking: 'SOMETIMES', language: 'xx', disabled: true }).expect(422);
    expect(bad.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['disabled', 'language', 'tracking']);
  });

  it('re-enables a disabled project', async () => {
    await app.runtime.app.get(DataSource).query(`UPDATE projects SET disabled = true, disabled_reason = 'EMAIL_REPUTATION', disabled_at = now() WHERE id = $1`, [owner.id]);
    const res = await asOwner(request(app.http).patch(`/users/@me/projects/${owner.id}`)).send({ disabled: false }).expect(200);
    expect(res.body).toMatchObject({ disabled: false, disabledReason: null });
  });

  it('answers 404 for malformed ids and for projects the user is not a member of', async () => {
    await asOwner(request(app.http).patch('/users/@me/projects/not-a-uuid')).send({ name: 'x' }).expect(404);
    await asOwner(request(app.http).get('/projects/123/members')).expect(404);
    await asOwner(request(app.http).get(`/projects/${owner.id}/members/abc`)).expect(404);
    const stranger = await createProject(app.http, 'Stranger');
    await asOwner(request(app.http).patch(`/users/@me/projects/${stranger.id}`)).send({ name: 'hijack' }).expect(404);
    await asOwner(request(app.http).post(`/users/@me/projects/${stranger.id}/regenerate-keys`)).expect(404);
    await asOwner(request(app.http).get(`/projects/${stranger.id}/members`)).expect(404);
    await asOwner(request(app.http).delete(`/users/@me/projects/${randomUUID()}`)).expect(404);
  });

  it('regenerates both keys; the old ones stop working at once', async () => {
    const project = await createProject(app.http, 'Rotate');
    await request(app.http).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(200);
    const res = await request(app.http).post(`/users/@me/projects/${project.id}/regenerate-keys`).set('Cookie', project.cookie).set(XHR).expect(200);
    expect(res.body.secret).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(res.body.public).toMatch(/^pk_[0-9a-f]{64}$/);
    expect(res.body.secret).not.toBe(project.secretKey);
    await request(app.http).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(401);
    await request(app.http).get('/v1/ping').set('Authorization', `Bearer ${res.body.secret}`).expect(200);
  });

  it('manages members with the role rules', async () => {
    const project = await createProject(app.http, 'Team');
    const admin = await signup(app);
    const member = await signup(app);
    const base = `/projects/${project.id}/members`;
    const as = (cookie: string, req: request.Test) => req.set('Cookie', cookie).set(XHR);

    await as(project.cookie, request(app.http).post(base)).send({ email: 'nobody-here@example.com', role: 'MEMBER' }).expect(404);
    await as(project.cookie, request(app.http).post(base)).send({ email: member.email, role: 'OWNER' }).expect(422);
    const added = await as(project.cookie, request(app.http).post(base)).send({ email: admin.email.toUpperCase(), role: 'ADMIN' }).expect(201);
    expect(added.body).toEqual({ userId: admin.id, email: admin.email, role: 'ADMIN', createdAt: expect.any(String) });
    await as(project.cookie, request(app.http).post(base)).send({ email: admin.email, role: 'MEMBER' }).expect(409);
    await as(admin.cookie, request(app.http).post(base)).send({ email: member.email, role: 'MEMBER' }).expect(201);

    const list = await as(member.cookie, request(app.http).get(base)).expect(200);
    expect(list.body.map((m: { role: string }) => m.role)).toEqual(['OWNER', 'ADMIN', 'MEMBER']);
    expect(Object.keys(list.body[0]).sort()).toEqual(['createdAt', 'email', 'role', 'userId']);

    // MEMBER: uses the project, manages nothing.
    const denied = await as(member.cookie, request(app.http).post(base)).send({ email: admin.email, role: 'MEMBER' }).expect(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    await as(member.cookie, request(app.http).patch(`/users/@me/projects/${project.id}`)).send({ name: 'x' }).expect(403);
    await as(member.cookie, request(app.http).post(`/users/@me/projects/${project.id}/regenerate-keys`)).expect(403);
    await as(member.cookie, request(app.http).delete(`${base}/${admin.id}`)).expect(403);
    await request(app.http).get('/v1/ping').set('Cookie', member.cookie).set('X-Project-Id', project.id).expect(200);

    // The OWNER is fixed; nobody removes themself.
    await as(admin.cookie, request(app.http).patch(`${base}/${project.userId}`)).send({ role: 'MEMBER' }).expect(403);
    await as(admin.cookie, request(app.http).delete(`${base}/${project.userId}`)).expect(403);
    await as(admin.cookie, request(app.http).delete(`${base}/${admin.id}`)).expect(403);
    await as(project.cookie, request(app.http).delete(`${base}/${project.userId}`)).expect(403);
    await as(project.cookie, request(app.http).patch(`${base}/${randomUUID()}`)).send({ role: 'ADMIN' }).expect(404);

    const promoted = await as(admin.cookie, request(app.http).patch(`${base}/${member.id}`)).send({ role: 'ADMIN' }).expect(200);
    expect(promoted.body.role).toBe('ADMIN');
    await as(project.cookie, request(app.http).delete(`${base}/${member.id}`)).expect(204);
    await as(member.cookie, request(app.http).get(base)).expect(404);
    await request(app.http).get('/v1/ping').set('Cookie', member.cookie).set('X-Project-Id', project.id).expect(404);
  });

  it('reports the onboarding state', async () => {
    const project = await createProject(app.http, 'Onboarding');
    const res = await request(app.http).get(`/projects/${project.id}/setup-state`).set('Cookie', project.cookie).expect(200);
    expect(res.body).toMatchObject({ hasContacts: false, hasTemplates: false, hasSentEmail: false, hasVerifiedDomain: false, hasTeamMembers: false, completed: false });
    await app.runtime.app.get(DataSource).query(`INSERT INTO contacts (project_id, email) VALUES ($1, 'a@example.com')`, [project.id]);
    const after = await request(app.http).get(`/projects/${project.id}/setup-state`).set('Cookie', project.cookie).expect(200);
    expect(after.body.hasContacts).toBe(true);
  });

  it('resets the project data but keeps project, members and keys', async () => {
    const project = await createProject(app.http, 'Reset');
    const keep = await createProject(app.http, 'Untouched');
    const db = app.runtime.app.get(DataSource);
    await db.query(`INSERT INTO contacts (project_id, email) VALUES ($1, 'a@example.com'), ($2, 'b@example.com')`, [project.id, keep.id]);
    await db.query(`INSERT INTO suppressions (project_id, email, reason, source) VALUES ($1, 'bounced@example.com', 'bounce', 'test')`, [project.id]);
    await request(app.http).post(`/users/@me/projects/${project.id}/reset`).set('Cookie', project.cookie).expect(403);
    await request(app.http).post(`/users/@me/projects/${project.id}/reset`).set('Cookie', project.cookie).set(XHR).expect(200);
    const counts = await db.query(`SELECT project_id, count(*)::int AS n FROM contacts WHERE project_id = ANY($1) GROUP BY project_id`, [[project.id, keep.id]]);
    expect(counts).toEqual([{ project_id: keep.id, n: 1 }]);
    // A reset must not launder the deliverability history.
    expect(await db.query(`SELECT email FROM suppressions WHERE project_id = $1`, [project.id])).toEqual([{ email: 'bounced@example.com' }]);
    await request(app.http).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(200);
    const members = await request(app.http).get(`/projects/${project.id}/members`).set('Cookie', project.cookie).expect(200);
    expect(members.body).toHaveLength(1);
  });

  it('deletes a project (204); its keys stop working', async () => {
    const project = await createProject(app.http, 'Doomed');
    await app.runtime.app.get(DataSource).query(`INSERT INTO contacts (project_id, email) VALUES ($1, 'a@example.com')`, [project.id]);
    await request(app.http).delete(`/users/@me/projects/${project.id}`).set('Cookie', project.cookie).set(XHR).expect(204).expect((res) => expect(res.text).toBe(''));
    await request(app.http).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(401);
    await request(app.http).delete(`/users/@me/projects/${project.id}`).set('Cookie', project.cookie).set(XHR).expect(404);
  });
});

describe('projects: bootstrap', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ BOOTSTRAP_EMAIL: 'Admin@Example.com', BOOTSTRAP_PASSWORD: 'bootstrap password' });
  });
  afterAll(() => app?.close());

  it('creates the verified first user with a project, once', async () => {
    const login = await request(app.http).post('/auth/login').send({ email: 'admin@example.com', password: 'bootstrap password' }).expect(200);
    expect(login.body.emailVerified).toBe(true);
    const cookie = [login.headers['set-cookie']].flat()[0].split(';')[0];
    const projects = await request(app.http).get('/users/@me/projects').set('Cookie', cookie).expect(200);
    expect(projects.body).toHaveLength(1);
    expect(projects.body[0].role).toBe('OWNER');
    // A second start (or a second process) finds users and does nothing.
    const bootstrap = app.runtime.app.get(BootstrapService);
    expect(await Promise.all([bootstrap.run('other@example.com', 'x'.repeat(8)), bootstrap.run('other@example.com', 'x'.repeat(8))])).toEqual([false, false]);
  });
});
