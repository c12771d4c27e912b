import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import request from 'supertest';
import { ACCESS_KEY } from '../../src/modules/auth/auth.decorators';
import type { TestProject } from '../support/app';
import { useSession } from '../support/session';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

/**
 * Requests here set their credentials and headers one by one (not the session's preset clients):
 * the headers are what is under test. The first test reads route metadata (white-box: no endpoint
 * lists the access kind of every route).
 */
describe('access', () => {
  const s = useSession({ PUBLIC_URL: 'http://mailroom.test' }, { projectName: 'A' });
  let a: TestProject;
  let b: TestProject;

  beforeAll(async () => {
    a = s.project;
    b = (await s.newProject('B')).project;
  });

  it('every registered route declares an access kind (deny by default)', () => {
    const discovery = s.app.runtime.app.get(DiscoveryService, { strict: false });
    const scanner = s.app.runtime.app.get(MetadataScanner, { strict: false });
    const reflector = s.app.runtime.app.get(Reflector, { strict: false });
    const routes: string[] = [];
    const undeclared: string[] = [];
    for (const wrapper of discovery.getControllers()) {
      const { instance, metatype } = wrapper;
      if (!instance || !metatype) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as object;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const route = `${method} ${metatype.name}.${name}`;
        routes.push(route);
        const kind = reflector.getAllAndOverride<string | undefined>(ACCESS_KEY, [handler as never, metatype]);
        if (!['public', 'secret', 'public-or-secret', 'session'].includes(kind as string)) undeclared.push(route);
      }
    }
    expect(routes.length).toBeGreaterThan(20);
    expect(undeclared).toEqual([]);
  });

  it('derives the project from the key; X-Project-Id cannot override it', async () => {
    const res = await request(s.http).get('/v1/ping').set('Authorization', `Bearer ${a.secretKey}`).set('X-Project-Id', b.id).expect(200);
    expect(res.body.data.projectId).toBe(a.id);
  });

  it("one project's key cannot read or change another project", async () => {
    const auth = `Bearer ${a.secretKey}`;
    // Keys never authenticate the dashboard's user routes.
    await request(s.http).get('/users/@me/projects').set('Authorization', auth).expect(401);
    await request(s.http).patch(`/users/@me/projects/${b.id}`).set('Authorization', auth).send({ name: 'x' }).expect(401);
    await request(s.http).post(`/users/@me/projects/${b.id}/regenerate-keys`).set('Authorization', auth).expect(401);
    await request(s.http).get(`/projects/${b.id}/members`).set('Authorization', auth).expect(401);
    // A session of A's owner cannot use B.
    await request(s.http).get('/v1/ping').set('Cookie', a.cookie).set('X-Project-Id', b.id).expect(404);
    await request(s.http).patch(`/users/@me/projects/${b.id}`).set('Cookie', a.cookie).set(XHR).send({ name: 'x' }).expect(404);
    await request(s.http).post(`/users/@me/projects/${b.id}/reset`).set('Cookie', a.cookie).set(XHR).expect(404);
    await request(s.http).get(`/projects/${b.id}/setup-state`).set('Cookie', a.cookie).expect(404);
    const list = await request(s.http).get('/users/@me/projects').set('Cookie', a.cookie).expect(200);
    expect(list.body.map((p: { id: string }) => p.id)).toEqual([a.id]);
  });

  it('rejects bad keys and malformed X-Project-Id', async () => {
    const bad = await request(s.http).get('/v1/ping').set('Authorization', `Bearer sk_${'0'.repeat(64)}`).expect(401);
    expect(bad.body.error.code).toBe('INVALID_API_KEY');
    await request(s.http).get('/v1/ping').set('Authorization', 'Bearer nonsense').expect(401);
    await request(s.http).get('/v1/ping').set('Cookie', a.cookie).set('X-Project-Id', 'nope').expect(404);
    await request(s.http).get('/v1/ping').set('Cookie', a.cookie).expect(404);
    await request(s.http).get('/v1/ping').set('Cookie', 'mailroom_session=forged').set('X-Project-Id', a.id).expect(401);
  });

  it('a session acts on a member project through X-Project-Id', async () => {
    const res = await request(s.http).get('/v1/ping').set('Cookie', a.cookie).set('X-Project-Id', a.id).expect(200);
    expect(res.body.data.projectId).toBe(a.id);
    expect(res.headers['ratelimit-limit']).toBe('1000');
  });

  it('refuses cookie writes without X-Requested-With or a same-origin Origin (CSRF)', async () => {
    const csrf = await request(s.http).post('/users/@me/projects').set('Cookie', a.cookie).send({ name: 'csrf' }).expect(403);
    expect(csrf.body.error.code).toBe('FORBIDDEN');
    await request(s.http).post('/users/@me/projects').set('Cookie', a.cookie).set('Origin', 'http://evil.test').send({ name: 'csrf' }).expect(403);
    await request(s.http).post('/users/@me/projects').set('Cookie', a.cookie).set('Origin', 'http://mailroom.test').send({ name: 'same origin' }).expect(201);
    // Project-scoped cookie writes too.
    await request(s.http).post('/v1/track').set('Cookie', a.cookie).set('X-Project-Id', a.id).send({ email: 'x@example.com', event: 'csrf' }).expect(403);
    await request(s.http).post('/events/track').set('Cookie', a.cookie).set('X-Project-Id', a.id).send({ email: 'x@example.com', event: 'csrf' }).expect(403);
    await request(s.http).post('/events/track').set('Cookie', a.cookie).set('X-Project-Id', a.id).set(XHR).send({ email: 'x@example.com', event: 'ok' }).expect(200);
    // API-key requests are not affected.
    await request(s.http).post('/v1/track').set('Authorization', `Bearer ${a.publicKey}`).send({ email: 'x@example.com', event: 'key' }).expect(200);
  });
});
