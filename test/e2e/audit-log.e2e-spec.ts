import request from 'supertest';
import { AuditPurge } from '../../src/modules/audit/worker/audit-purge';
import { ApiClient, apiClient, ProjectSession, sessionHeaders, TestUser, useSession } from '../support/session';

/**
 * The audit log and account deletion (docs/audit-log.md) through HTTP: every recorded action with
 * its actor (the session's user, or the secret key by its id), target, changes and client address
 * (TRUST_PROXY trusts the loopback hop, so X-Forwarded-For names the client); the filters, the
 * pages, the OWNER/ADMIN rule and the walls between projects; the purge after a year; and
 * `DELETE /users/@me`.
 */
interface Entry {
  id: string;
  actor: { type: 'user' | 'key'; id: string; email?: string };
  action: string;
  target: { type: string; id: string };
  changes?: string[];
  at: string;
  ip: string | null;
}
interface Page {
  data: Entry[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

const PASSWORD = 'correct horse battery';

describe('audit log', () => {
  const s = useSession({ TRUST_PROXY: '1', EMAIL_TRANSPORT: 'outbox', DOMAIN_VERIFICATION: 'off' });

  /** The owner's dashboard acting on the project (the X-Project-Id routes). */
  const owner = (p: ProjectSession): ApiClient => apiClient(s.http, { ...sessionHeaders(p.project.cookie), 'X-Project-Id': p.project.id });
  const from = (ip: string) => ({ 'X-Forwarded-For': ip });
  const page = async (client: ApiClient, query: Record<string, unknown> = {}): Promise<Page> => (await client.get('/audit-log', query).expect(200)).body as Page;
  /** Every entry, newest first, following the cursor. */
  const all = async (client: ApiClient, query: Record<string, unknown> = {}): Promise<Entry[]> => {
    const out: Entry[] = [];
    let cursor: string | undefined;
    do {
      const res = await page(client, { ...query, limit: 100, ...(cursor ? { cursor } : {}) });
      out.push(...res.data);
      cursor = res.hasMore ? (res.cursor as string) : undefined;
    } while (cursor);
    return out;
  };
  const keyIdOf = async (p: ProjectSession): Promise<string> => (await p.dashboard.get(`/users/@me/projects/${p.project.id}`).expect(200)).body.secretPrefix as string;
  const fieldsOf = (res: { body: { error: { errors?: Array<{ field: string }> } } }) => (res.body.error.errors ?? []).map((e) => e.field);

  it('is announced in GET /config', async () => {
    expect((await s.anonymous.get('/config').expect(200)).body).toMatchObject({ auditLog: true, accountDeletion: true });
  });

  describe('what is recorded', () => {
    let p: ProjectSession;
    let member: TestUser;
    let entries: Entry[];
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      p = await s.newProject('Audited');
      member = await s.newUser();
      const project = p.project.id;
      const session = p.dashboard;
      // Session calls, each from its own address.
      await session.patch(`/users/@me/projects/${project}`, { name: 'Audited too', tracking: 'DISABLED', doubleOptIn: { enabled: false } }).set(from('198.51.100.1')).expect(200);
      await session.patch(`/users/@me/projects/${project}`, {}).set(from('198.51.100.2')).expect(200);
      await session.post(`/projects/${project}/members`, { email: member.email, role: 'MEMBER' }).set(from('198.51.100.3')).expect(201);
      await session.patch(`/projects/${project}/members/${member.id}`, { role: 'ADMIN' }).set(from('198.51.100.4')).expect(200);
      await session.delete(`/projects/${project}/members/${member.id}`).set(from('198.51.100.5')).expect(204);
      ids.webhookBySession = (await owner(p).post('/webhooks', { url: 'https://hooks.example.com/by-session', events: ['*'], enabled: false }).set(from('198.51.100.6')).expect(201)).body.id;
      // Secret-key calls.
      ids.domain = (await p.api.post('/domains', { domain: 'audited.example.com' }).set(from('192.0.2.1')).expect(201)).body.id;
      await p.api.delete(`/domains/${ids.domain}`).set(from('192.0.2.2')).expect(204);
      ids.webhook = (await p.api.post('/webhooks', { url: 'https://hooks.example.com/by-key', events: ['email.*'], enabled: false }).set(from('192.0.2.3')).expect(201)).body.id;
      await p.api.patch(`/webhooks/${ids.webhook}`, { description: 'CRM', events: ['email.sent'] }).set(from('192.0.2.4')).expect(200);
      await p.api.post(`/webhooks/${ids.webhook}/rotate-secret`).set(from('192.0.2.5')).expect(200);
      await p.api.delete(`/webhooks/${ids.webhook}`).set(from('192.0.2.6')).expect(204);
      const campaign = async (name: string) =>
        (await p.api.post('/campaigns', { name, subject: 'News', body: '<p>News</p>', from: 'news@example.com', audienceType: 'ALL' }).expect(201)).body.data.id as string;
      ids.scheduled = await campaign('Later');
      await p.api.post(`/campaigns/${ids.scheduled}/send`, { scheduledFor: new Date(Date.now() + 3600_000).toISOString() }).set(from('192.0.2.7')).expect(200);
      await p.api.post(`/campaigns/${ids.scheduled}/cancel`).set(from('192.0.2.8')).expect(200);
      // Calls that fail record nothing.
      await p.api.delete(`/domains/${ids.domain}`).expect(404);
      await p.api.post(`/campaigns/${ids.scheduled}/cancel`).expect(409);
      await session.delete(`/projects/${project}/members/${p.project.userId}`).expect(403);
      ids.keyId = await keyIdOf(p);
      // Last, as the old key stops working: the keys, by the session.
      const rotated = await session.post(`/users/@me/projects/${project}/regenerate-keys`).set(from('198.51.100.9')).expect(200);
      p = s.as({ ...p.project, secretKey: rotated.body.secret, publicKey: rotated.body.public });
      entries = (await all(p.api)).reverse();
    });

    it('records each action once, oldest last in the list, with its target', () => {
      expect(entries.map((e) => [e.action, e.target.type, e.target.id])).toEqual([
        ['project.settings_updated', 'project', p.project.id],
        ['member.added', 'user', member.id],
        ['member.role_changed', 'user', member.id],
        ['member.removed', 'user', member.id],
        ['webhook.created', 'webhook', ids.webhookBySession],
        ['domain.created', 'domain', ids.domain],
        ['domain.deleted', 'domain', ids.domain],
        ['webhook.created', 'webhook', ids.webhook],
        ['webhook.updated', 'webhook', ids.webhook],
        ['webhook.secret_rotated', 'webhook', ids.webhook],
        ['webhook.deleted', 'webhook', ids.webhook],
        ['campaign.sent', 'campaign', ids.scheduled],
        ['campaign.cancelled', 'campaign', ids.scheduled],
        ['project.keys_regenerated', 'project', p.project.id],
      ]);
      expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    });

    it("names the session's user (with the email) and the secret key by its id, and the client address", () => {
      const user = { type: 'user', id: p.project.userId, email: p.project.email };
      const key = { type: 'key', id: ids.keyId };
      expect(ids.keyId).toMatch(/^sk_[0-9a-f]{7}$/);
      expect(entries.map((e) => [e.action, e.actor, e.ip])).toEqual([
        ['project.settings_updated', user, '198.51.100.1'],
        ['member.added', user, '198.51.100.3'],
        ['member.role_changed', user, '198.51.100.4'],
        ['member.removed', user, '198.51.100.5'],
        ['webhook.created', user, '198.51.100.6'],
        ['domain.created', key, '192.0.2.1'],
        ['domain.deleted', key, '192.0.2.2'],
        ['webhook.created', key, '192.0.2.3'],
        ['webhook.updated', key, '192.0.2.4'],
        ['webhook.secret_rotated', key, '192.0.2.5'],
        ['webhook.deleted', key, '192.0.2.6'],
        ['campaign.sent', key, '192.0.2.7'],
        ['campaign.cancelled', key, '192.0.2.8'],
        ['project.keys_regenerated', user, '198.51.100.9'],
      ]);
      for (const e of entries) expect(Date.parse(e.at)).not.toBeNaN();
    });

    it('names the settings a PATCH changed (an empty PATCH records nothing), and only there', () => {
      expect(entries.filter((e) => e.changes).map((e) => [e.action, e.changes])).toEqual([
        ['project.settings_updated', ['name', 'tracking', 'doubleOptIn']],
        ['webhook.updated', ['events', 'description']],
      ]);
    });

    it('filters by action, actor and time, and counts what the filter matches', async () => {
      const byAction = await page(p.api, { action: 'webhook.created' });
      expect(byAction.total).toBe(2);
      expect(byAction.data.map((e) => e.target.id).sort()).toEqual([ids.webhook, ids.webhookBySession].sort());
      // Actions of features to come are taken by the filter (and match nothing yet).
      expect((await page(p.api, { action: 'contact.erased' })).total).toBe(0);
      expect((await all(p.api, { actorId: ids.keyId })).map((e) => e.actor.type)).toEqual(Array(8).fill('key'));
      expect((await all(p.api, { actorId: p.project.userId.toUpperCase() })).every((e) => e.actor.id === p.project.userId)).toBe(true);
      expect((await page(p.api, { actorId: p.project.userId })).total).toBe(6);
      expect((await page(p.api, { actorId: member.id })).total).toBe(0);
      const first = entries[0].at;
      const last = entries[entries.length - 1].at;
      expect((await page(p.api, { from: first, to: last })).total).toBe(entries.length);
      expect((await page(p.api, { from: last })).data.map((e) => e.action)).toContain('project.keys_regenerated');
      expect((await page(p.api, { to: new Date(Date.parse(first) - 1).toISOString() })).total).toBe(0);
      expect((await page(p.api, { from: new Date(Date.now() + 60_000).toISOString() })).total).toBe(0);
      expect((await page(p.api, { action: 'domain.created', actorId: ids.keyId, from: '2020-01-01' })).data.map((e) => e.target.id)).toEqual([ids.domain]);
    });

    it('pages newest first without losing or repeating an entry; total only on the first page', async () => {
      const seen: Entry[] = [];
      let res = await page(p.api, { limit: 4 });
      expect(res.total).toBe(entries.length);
      seen.push(...res.data);
      while (res.hasMore) {
        res = await page(p.api, { limit: 4, cursor: res.cursor });
        expect(res.total).toBe(0);
        seen.push(...res.data);
      }
      expect(res.cursor).toBeNull();
      expect(seen.map((e) => e.id)).toEqual([...entries].reverse().map((e) => e.id));
      const filtered = await page(p.api, { actorId: ids.keyId, limit: 3 });
      const next = await page(p.api, { actorId: ids.keyId, limit: 3, cursor: filtered.cursor });
      expect([...filtered.data, ...next.data].every((e) => e.actor.type === 'key')).toBe(true);
    });

    it('is for OWNER and ADMIN: the owner and an ADMIN session read it, a MEMBER gets 403, the secret key reads it', async () => {
      expect((await page(owner(p))).total).toBe(entries.length);
      const reader = await s.newUser();
      await p.dashboard.post(`/projects/${p.project.id}/members`, { email: reader.email, role: 'MEMBER' }).expect(201);
      const asReader = () => reader.dashboard.get('/audit-log').set('X-Project-Id', p.project.id);
      const refused = await asReader().expect(403);
      expect(refused.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
      await p.dashboard.patch(`/projects/${p.project.id}/members/${reader.id}`, { role: 'ADMIN' }).expect(200);
      expect((await asReader().expect(200)).body.total).toBe(entries.length + 2);
    });

    it("never shows another project's log: its key, its ids and its cursors reach only its own entries", async () => {
      const other = await s.newProject('Other');
      await other.api.post('/domains', { domain: 'other.example.com' }).expect(201);
      const theirs = await all(other.api);
      expect(theirs.map((e) => e.action)).toEqual(['domain.created']);
      // Our ids as filters in their log, their cursor on ours.
      expect((await page(other.api, { actorId: p.project.userId })).total).toBe(0);
      expect((await page(other.api, { actorId: ids.keyId })).total).toBe(0);
      const ours = await page(p.api, { limit: 1 });
      const crossed = await page(other.api, { limit: 100, cursor: ours.cursor });
      expect(crossed.data.every((e) => theirs.some((t) => t.id === e.id))).toBe(true);
      // A session naming a project it is not a member of.
      await other.dashboard.get('/audit-log').set('X-Project-Id', p.project.id).expect(404);
      await s.anonymous.get('/audit-log').expect(401);
    });

    it('answers bad filters in the error envelope, never 500', async () => {
      const cases: Array<[Record<string, unknown>, number, string[]]> = [
        [{ action: 'project.deleted' }, 422, ['action']],
        [{ actorId: 'someone' }, 422, ['actorId']],
        [{ actorId: 'sk_' + 'f'.repeat(64) }, 422, ['actorId']],
        [{ from: 'yesterday' }, 422, ['from']],
        [{ to: '2026-02-30' }, 422, ['to']],
        [{ from: '2026-02-01', to: '2026-01-01' }, 422, ['to']],
        [{ from: '+275760-09-13T00:00:00Z' }, 422, ['from']],
        [{ limit: '0' }, 422, ['limit']],
        [{ cursor: 'not a cursor' }, 400, []],
        [{ cursor: Buffer.from(JSON.stringify({ v: 'now', id: 'x' })).toString('base64url') }, 400, []],
      ];
      for (const [query, status, fields] of cases) {
        const res = await p.api.get('/audit-log', query);
        expect([JSON.stringify(query), res.status]).toEqual([JSON.stringify(query), status]);
        expect(res.body.success).toBe(false);
        expect(typeof res.body.error.message).toBe('string');
        expect(fieldsOf(res)).toEqual(fields);
      }
      const repeated = await request(s.http).get('/audit-log?action=domain.created&action=domain.deleted').set('Authorization', `Bearer ${p.keys.secret}`);
      expect(repeated.status).toBe(422);
    });

    it('keeps entries through a reset, and purges those older than a year', async () => {
      await p.dashboard.post(`/users/@me/projects/${p.project.id}/reset`).expect(200);
      expect((await page(p.api)).total).toBe(entries.length + 2);
      // Time travel in SQL: no endpoint ages an entry; the domain entries become a year and a day old.
      await s.db.query(`UPDATE audit_log SET at = now() - interval '366 days' WHERE project_id = $1 AND action LIKE 'domain.%'`, [p.project.id]);
      await s.app.runtime.app.get(AuditPurge).runNow();
      const left = await all(p.api);
      expect(left.map((e) => e.action)).not.toContain('domain.created');
      expect(left).toHaveLength(entries.length);
    });
  });

  describe('DELETE /users/@me', () => {
    const signIn = async (email: string) => {
      const res = await request(s.http).post('/auth/login').send({ email, password: PASSWORD }).expect(200);
      return apiClient(s.http, sessionHeaders([res.headers['set-cookie']].flat()[0].split(';')[0]));
    };

    it('refuses a wrong or missing password, and deletes nothing', async () => {
      const p = await s.newProject();
      const wrong = await p.dashboard.delete('/users/@me', { password: 'not the password' }).expect(403);
      expect(wrong.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
      expect(fieldsOf(await p.dashboard.delete('/users/@me', {}).expect(422))).toEqual(['password']);
      expect(fieldsOf(await p.dashboard.delete('/users/@me', { password: 12 }).expect(422))).toEqual(['password']);
      await p.dashboard.get('/users/@me').expect(200);
      await p.api.get('/audit-log').expect(200);
      // A key is not a session.
      await p.api.delete('/users/@me', { password: PASSWORD }).expect(401);
    });

    it('refuses with 409 naming the owned projects that have other members', async () => {
      const p = await s.newProject('Shared one');
      const other = await s.newUser();
      await p.dashboard.post(`/projects/${p.project.id}/members`, { email: other.email, role: 'MEMBER' }).expect(201);
      // The owner of `p` also owns a second project, alone.
      const second = (await p.dashboard.post('/users/@me/projects', { name: 'Second' }).expect(201)).body as { id: string; secret: string };
      const refused = await p.dashboard.delete('/users/@me', { password: PASSWORD }).expect(409);
      expect(refused.body.error).toMatchObject({ code: 'CONFLICT', details: { projects: [{ id: p.project.id, name: 'Shared one' }] } });
      expect(refused.body.error.message).toContain('"Shared one"');
      expect(refused.body.error.message).not.toContain('Second');
      await p.dashboard.get(`/users/@me/projects/${second.id}`).expect(200);
      await p.api.get('/audit-log').expect(200);
      // Once the other member is gone, the account goes with both projects.
      await p.dashboard.delete(`/projects/${p.project.id}/members/${other.id}`).expect(204);
      await p.dashboard.delete('/users/@me', { password: PASSWORD }).expect(204);
      await p.api.get('/audit-log').expect(401);
      await apiClient(s.http, { Authorization: `Bearer ${second.secret}` }).get('/audit-log').expect(401);
      await other.dashboard.get(`/users/@me/projects/${p.project.id}`).expect(404);
    });

    it("ends every session, deletes the projects it owns with their data, and leaves others' projects without it", async () => {
      const p = await s.newProject('Mine');
      const theirs = await s.newProject('Theirs');
      await theirs.dashboard.post(`/projects/${theirs.project.id}/members`, { email: p.project.email, role: 'ADMIN' }).expect(201);
      const created = await p.api.post('/contacts', { email: 'someone@example.com' });
      expect([200, 201]).toContain(created.status);
      const contact = created.body.id as string;
      const second = await signIn(p.project.email);
      await second.get('/users/@me').expect(200);

      await p.dashboard.delete('/users/@me', { password: PASSWORD }).expect(204);

      await p.dashboard.get('/users/@me').expect(401);
      await second.get('/users/@me').expect(401);
      await request(s.http).post('/auth/login').send({ email: p.project.email, password: PASSWORD }).expect(401);
      // The owned project and its data: its key names nothing any more.
      await p.api.get(`/contacts/${contact}`).expect(401);
      await p.api.get('/audit-log').expect(401);
      // The project it was a member of stays, without it.
      const members = (await theirs.dashboard.get(`/projects/${theirs.project.id}/members`).expect(200)).body as Array<{ userId: string }>;
      expect(members.map((m) => m.userId)).toEqual([theirs.project.userId]);
      await theirs.api.get('/audit-log').expect(200);
      // The address may sign up again, as a new account without projects.
      const again = await request(s.http).post('/auth/signup').send({ email: p.project.email, password: PASSWORD }).expect(201);
      expect(again.body.id).not.toBe(p.project.userId);
    });
  });
});
