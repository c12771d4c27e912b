import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { BootstrapService } from '../../src/modules/projects/bootstrap.service';
import { createProject, startTestApp, TestProject } from '../support/app';
import { useFixture, useSession } from '../support/session';

/*
 * Cookie requests set their headers one by one where the CSRF header is under test. White-box: a
 * project disabled for reputation (no endpoint disables one) and the suppression list across a
 * reset (no endpoint lists suppressions).
 */

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

describe('projects', () => {
  const s = useSession({}, { projectName: 'Main' });
  let owner: TestProject;
  beforeAll(() => {
    owner = s.project;
  });

  it('creates a project with both keys in full once, and lists it with prefixes only', async () => {
    expect(owner.secretKey).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(owner.publicKey).toMatch(/^pk_[0-9a-f]{64}$/);
    const list = await s.dashboard.get('/users/@me/projects').expect(200);
    const item = list.body.find((p: { id: string }) => p.id === owner.id);
    expect(item).toMatchObject({ name: 'Main', secretPrefix: owner.secretKey.slice(0, 10), publicPrefix: owner.publicKey.slice(0, 10), role: 'OWNER', tracking: 'ENABLED', language: 'en', disabled: false, disabledReason: null });
    expect(item.secret).toBeUndefined();
    expect(item.public).toBeUndefined();
  });

  it('updates settings and validates them', async () => {
    const res = await s.dashboard.patch(`/users/@me/projects/${owner.id}`).send({ name: 'Renamed', tracking: 'MARKETING_ONLY', language: 'de' }).expect(200);
    expect(res.body).toMatchObject({ id: owner.id, name: 'Renamed', tracking: 'MARKETING_ONLY', language: 'de' });
    const bad = await s.dashboard.patch(`/users/@me/projects/${owner.id}`).send({ tracking: 'SOMETIMES', language: 'xx', disabled: true }).expect(422);
    expect(bad.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['disabled', 'language', 'tracking']);
  });

  it('re-enables a disabled project', async () => {
    // Arranged in SQL: only the reputation check disables a project, no endpoint does.
    await s.db.query(`UPDATE projects SET disabled = true, disabled_reason = 'EMAIL_REPUTATION', disabled_at = now() WHERE id = $1`, [owner.id]);
    const res = await s.dashboard.patch(`/users/@me/projects/${owner.id}`).send({ disabled: false }).expect(200);
    expect(res.body).toMatchObject({ disabled: false, disabledReason: null });
  });

  it('answers 404 for malformed ids and for projects the user is not a member of', async () => {
    await s.dashboard.patch('/users/@me/projects/not-a-uuid').send({ name: 'x' }).expect(404);
    await s.dashboard.get('/projects/123/members').expect(404);
    await s.dashboard.get(`/projects/${owner.id}/members/abc`).expect(404);
    const stranger = await createProject(s.http, 'Stranger');
    await s.dashboard.patch(`/users/@me/projects/${stranger.id}`).send({ name: 'hijack' }).expect(404);
    await s.dashboard.post(`/users/@me/projects/${stranger.id}/regenerate-keys`).expect(404);
    await s.dashboard.get(`/projects/${stranger.id}/members`).expect(404);
    await s.dashboard.delete(`/users/@me/projects/${randomUUID()}`).expect(404);
  });

  it('regenerates both keys; the old ones stop working at once', async () => {
    const project = await createProject(s.http, 'Rotate');
    await request(s.http).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(200);
    const res = await request(s.http).post(`/users/@me/projects/${project.id}/regenerate-keys`).set('Cookie', project.cookie).set(XHR).expect(200);
    expect(res.body.secret).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(res.body.public).toMatch(/^pk_[0-9a-f]{64}$/);
    expect(res.body.secret).not.toBe(project.secretKey);
    await request(s.http).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(401);
    await request(s.http).get('/v1/ping').set('Authorization', `Bearer ${res.body.secret}`).expect(200);
  });

  it('manages members with the role rules', async () => {
    const project = await createProject(s.http, 'Team');
    const admin = await s.newUser();
    const member = await s.newUser();
    const base = `/projects/${project.id}/members`;
    const as = (cookie: string, req: request.Test) => req.set('Cookie', cookie).set(XHR);

    await as(project.cookie, request(s.http).post(base)).send({ email: 'nobody-here@example.com', role: 'MEMBER' }).expect(404);
    await as(project.cookie, request(s.http).post(base)).send({ email: member.email, role: 'OWNER' }).expect(422);
    const added = await as(project.cookie, request(s.http).post(base)).send({ email: admin.email.toUpperCase(), role: 'ADMIN' }).expect(201);
    expect(added.body).toEqual({ userId: admin.id, email: admin.email, role: 'ADMIN', createdAt: expect.any(String) });
    await as(project.cookie, request(s.http).post(base)).send({ email: admin.email, role: 'MEMBER' }).expect(409);
    await as(admin.cookie, request(s.http).post(base)).send({ email: member.email, role: 'MEMBER' }).expect(201);

    const list = await as(member.cookie, request(s.http).get(base)).expect(200);
    expect(list.body.map((m: { role: string }) => m.role)).toEqual(['OWNER', 'ADMIN', 'MEMBER']);
    expect(Object.keys(list.body[0]).sort()).toEqual(['createdAt', 'email', 'role', 'userId']);

    // MEMBER: uses the project, manages nothing.
    const denied = await as(member.cookie, request(s.http).post(base)).send({ email: admin.email, role: 'MEMBER' }).expect(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    await as(member.cookie, request(s.http).patch(`/users/@me/projects/${project.id}`)).send({ name: 'x' }).expect(403);
    await as(member.cookie, request(s.http).post(`/users/@me/projects/${project.id}/regenerate-keys`)).expect(403);
    await as(member.cookie, request(s.http).delete(`${base}/${admin.id}`)).expect(403);
    await request(s.http).get('/v1/ping').set('Cookie', member.cookie).set('X-Project-Id', project.id).expect(200);

    // The OWNER is fixed; nobody removes themself.
    await as(admin.cookie, request(s.http).patch(`${base}/${project.userId}`)).send({ role: 'MEMBER' }).expect(403);
    await as(admin.cookie, request(s.http).delete(`${base}/${project.userId}`)).expect(403);
    await as(admin.cookie, request(s.http).delete(`${base}/${admin.id}`)).expect(403);
    await as(project.cookie, request(s.http).delete(`${base}/${project.userId}`)).expect(403);
    await as(project.cookie, request(s.http).patch(`${base}/${randomUUID()}`)).send({ role: 'ADMIN' }).expect(404);

    const promoted = await as(admin.cookie, request(s.http).patch(`${base}/${member.id}`)).send({ role: 'ADMIN' }).expect(200);
    expect(promoted.body.role).toBe('ADMIN');
    await as(project.cookie, request(s.http).delete(`${base}/${member.id}`)).expect(204);
    await as(member.cookie, request(s.http).get(base)).expect(404);
    await request(s.http).get('/v1/ping').set('Cookie', member.cookie).set('X-Project-Id', project.id).expect(404);
  });

  it('reports the onboarding state', async () => {
    const project = await createProject(s.http, 'Onboarding');
    const res = await request(s.http).get(`/projects/${project.id}/setup-state`).set('Cookie', project.cookie).expect(200);
    expect(res.body).toMatchObject({ hasContacts: false, hasTemplates: false, hasSentEmail: false, hasVerifiedDomain: false, hasTeamMembers: false, completed: false });
    await s.as(project).api.post('/contacts', { email: 'a@example.com' }).expect(201);
    const after = await request(s.http).get(`/projects/${project.id}/setup-state`).set('Cookie', project.cookie).expect(200);
    expect(after.body.hasContacts).toBe(true);
  });

  it('resets the project data but keeps project, members and keys', async () => {
    const project = await createProject(s.http, 'Reset');
    const keep = await createProject(s.http, 'Untouched');
    await s.as(project).api.post('/contacts', { email: 'a@example.com' }).expect(201);
    await s.as(keep).api.post('/contacts', { email: 'b@example.com' }).expect(201);
    // Arranged in SQL: no endpoint adds a suppression (a bounce does, through the SNS webhook).
    await s.db.query(`INSERT INTO suppressions (project_id, email, reason, source) VALUES ($1, 'bounced@example.com', 'bounce', 'test')`, [project.id]);
    await request(s.http).post(`/users/@me/projects/${project.id}/reset`).set('Cookie', project.cookie).expect(403);
    await request(s.http).post(`/users/@me/projects/${project.id}/reset`).set('Cookie', project.cookie).set(XHR).expect(200);
    expect(await s.as(project).read.contactCount()).toBe(0);
    expect(await s.as(keep).read.contactCount()).toBe(1);
    // A reset must not launder the deliverability history.
    // Read in SQL: no endpoint lists a project's suppressions.
    expect(await s.db.query(`SELECT email FROM suppressions WHERE project_id = $1`, [project.id])).toEqual([{ email: 'bounced@example.com' }]);
    await request(s.http).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(200);
    const members = await request(s.http).get(`/projects/${project.id}/members`).set('Cookie', project.cookie).expect(200);
    expect(members.body).toHaveLength(1);
  });

  it('deletes a project (204); its keys stop working', async () => {
    const project = await createProject(s.http, 'Doomed');
    await s.as(project).api.post('/contacts', { email: 'a@example.com' }).expect(201);
    await request(s.http).delete(`/users/@me/projects/${project.id}`).set('Cookie', project.cookie).set(XHR).expect(204).expect((res) => expect(res.text).toBe(''));
    await request(s.http).get('/v1/ping').set('Authorization', `Bearer ${project.secretKey}`).expect(401);
    await request(s.http).delete(`/users/@me/projects/${project.id}`).set('Cookie', project.cookie).set(XHR).expect(404);
  });
});

describe('projects: bootstrap', () => {
  // No session: the bootstrap user must be the only one.
  const app = useFixture(() => startTestApp({ BOOTSTRAP_EMAIL: 'Admin@Example.com', BOOTSTRAP_PASSWORD: 'bootstrap password' }), (a) => a.close());

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
