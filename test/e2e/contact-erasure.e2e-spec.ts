import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { PersonalDataRegistry } from '../../src/modules/contacts';
import { createProject, withKillableService } from '../support/app';
import { bearer, importContacts, ProjectSession, useFixture, useSession, waitFor } from '../support/session';
import { WebhookReceiver } from '../support/webhook-receiver';
import { pause } from '../support/wait';

/**
 * A contact's erasure (`POST /contacts/:id/erase`, docs/personal-data.md) through HTTP: its data
 * deleted or anonymised while the aggregates stand, `contact.erased` reaching a webhook without the
 * address, the hashed suppression holding back marketing mail from a contact created again until
 * it subscribes explicitly, transactional mail unaffected; roles, foreign and malformed ids, the
 * list, a job that fails part-way resuming and completing once, and erasures a kill -9 interrupted
 * finishing once after the restart.
 */

interface Erasure {
  id: string;
  contactId: string;
  status: string;
  requestedAt: string;
  completedAt: string | null;
}

describe('contact erasure', () => {
  const hooks = useFixture(() => WebhookReceiver.start(), (r) => r.close());
  const s = useSession(() => ({ EMAIL_TRANSPORT: 'outbox', DOMAIN_VERIFICATION: 'off', WEBHOOK_ALLOW_PRIVATE: 'true' }), { projectName: 'Erasure A' });
  let other: ProjectSession;
  let hookPath: string;
  let ann: string;
  let workflowId: string;
  let executionId: string;
  let segmentId: string;
  let campaignId: string;
  let transactionalId: string;

  const erase = async (api: ProjectSession['api'], contactId: string) => (await api.post(`/contacts/${contactId}/erase`).expect(202)).body as { jobId: string; status: string };
  const erasure = async (jobId: string) => (await s.api.get(`/contacts/erasures/${jobId}`).expect(200)).body as Erasure;
  const completed = (jobId: string) => waitFor(async () => ((await erasure(jobId)).status === 'completed' ? erasure(jobId) : undefined), 30_000, 100);
  const stats = async (id: string) => (await s.api.get(`/campaigns/${id}/stats`).expect(200)).body as Record<string, unknown>;
  /** A campaign's counts: `uncertainArrivedShare` is the service's share across every outcome it has seen, not the campaign's. */
  const counts = async (id: string) => {
    const { uncertainArrivedShare: _share, ...rest } = await stats(id);
    return rest;
  };
  const sendCampaign = async (name: string) => {
    const id = (await s.api.post('/campaigns', { name, subject: 'News', body: '<p>News</p>', from: 'news@example.com', audienceType: 'ALL' }).expect(201)).body.data.id as string;
    await s.api.post(`/campaigns/${id}/send`).expect(200);
    await waitFor(async () => ((await s.api.get(`/campaigns/${id}`).expect(200)).body.status === 'SENT' ? true : undefined), 30_000, 100);
    await waitFor(async () => {
      const st = await stats(id);
      return (st.sentCount as number) + (st.skippedCount as number) === st.totalRecipients ? st : undefined;
    }, 30_000, 100);
    return id;
  };
  // Read in SQL: counts of rows the erasure must have deleted, which no API lists any more.
  const countOf = async (sql: string, params: unknown[]) => Number((await s.db.query<{ n: number }>(sql, params))[0].n);

  beforeAll(async () => {
    other = await s.newProject('Erasure B');
    hookPath = `/erased-${randomBytes(3).toString('hex')}`;
    const hook = (await s.api.post('/webhooks', { url: hooks.url(hookPath), events: ['contact.erased'] }).expect(201)).body as { secret: string };
    hooks.secret(hookPath, hook.secret);
    ann = (await s.api.post('/contacts', { email: 'ann@example.com', data: { plan: 'pro' } }).expect(201)).body.id;
    await s.api.post('/contacts', { email: 'bob@example.com' }).expect(201);
    await s.api.post('/v1/track', { email: 'ann@example.com', event: 'signed-up' }).expect(200);
    workflowId = (await s.api.post('/workflows', { name: 'Onboarding', eventName: 'onboard' }).expect(201)).body.id;
    executionId = (await s.api.post(`/workflows/${workflowId}/executions`, { contactId: ann }).expect(201)).body.id;
    segmentId = (await s.api.post('/segments', { name: 'Picked', type: 'STATIC' }).expect(201)).body.id;
    await s.api.post(`/segments/${segmentId}/members`, { emails: ['ann@example.com', 'bob@example.com'] }).expect(200);
    campaignId = await sendCampaign('Before');
    const sent = await s.api.post('/v1/send', { to: 'ann@example.com', from: 'hello@example.com', subject: 'Hello {{data.plan}}', body: '<p>Plan {{data.plan}}</p>' }).expect(200);
    transactionalId = sent.body.data.emails[0].email;
    await s.read.emailSettled(transactionalId);
  });

  it("erases the contact: its events, executions, memberships gone, its emails anonymous, the aggregates unchanged, contact.erased delivered without the address", async () => {
    const statsBefore = await counts(campaignId);
    const activityBefore = (await s.api.get('/activity/stats').expect(200)).body;
    const queued = await erase(s.api, ann);
    expect(queued).toEqual({ jobId: expect.stringMatching(/^ers_[0-9a-f]{32}$/), status: 'queued' });
    const done = await completed(queued.jobId);
    expect(done).toEqual({ id: queued.jobId, contactId: ann, status: 'completed', requestedAt: expect.any(String), completedAt: expect.any(String) });

    await s.api.get(`/contacts/${ann}`).expect(404);
    await s.api.get(`/contacts/${ann}/export`).expect(404);
    await s.api.get(`/events/contact/${ann}`).expect(404);
    expect(await countOf(`SELECT count(*)::int AS n FROM events WHERE contact_id = $1`, [ann])).toBe(0);
    await s.api.get(`/workflows/${workflowId}/executions/${executionId}`).expect(404);
    expect(await countOf(`SELECT count(*)::int AS n FROM segment_members WHERE contact_id = $1`, [ann])).toBe(0);
    expect(await countOf(`SELECT count(*)::int AS n FROM segment_members WHERE segment_id = $1`, [segmentId])).toBe(1);

    // Emails stay, anonymous: no recipient, no content, no rendered subject; their statuses and counts stay.
    const email = (await s.api.get(`/v1/emails/${transactionalId}`).expect(200)).body;
    expect(email).toMatchObject({ to: '', contactId: null, subject: null });
    expect(email.content ?? null).toBeNull();
    expect(await countOf(`SELECT count(*)::int AS n FROM emails WHERE project_id = $1 AND (to_address ILIKE '%ann@%' OR variables::text ILIKE '%pro%')`, [s.project.id])).toBe(0);
    expect(await counts(campaignId)).toEqual(statsBefore);
    // The contact's events are gone, their counts stay; `contact.erased` itself is one event more.
    expect((await s.api.get('/activity/stats').expect(200)).body).toEqual({ ...activityBefore, events: activityBefore.events + 1 });

    const call = await hooks.waitForCall((c) => c.path === hookPath && c.event?.type === 'contact.erased');
    expect(call.verified).toBe(true);
    expect(call.event!.data).toMatchObject({ contactId: ann });
    expect(call.request.body.toString()).not.toContain('ann@example.com');

    const audit = (await s.api.get('/audit-log', { action: 'contact.erased' }).expect(200)).body.data;
    expect(audit[0]).toMatchObject({ action: 'contact.erased', target: { type: 'contact', id: ann }, actor: { type: 'key' } });

    // Read in SQL: the address is kept only as a salted hash, which no API returns.
    const kept = await s.db.query<{ hash: string }>(`SELECT encode(address_hash, 'hex') AS hash FROM erased_addresses WHERE project_id = $1`, [s.project.id]);
    expect(kept).toHaveLength(1);
    expect(kept[0].hash).toMatch(/^[0-9a-f]{64}$/);
    const dump = JSON.stringify(await s.db.query(`SELECT * FROM contact_erasures WHERE project_id = $1`, [s.project.id]));
    expect(dump).not.toContain('ann@example.com');
  });

  it('lists erasures newest first without any address; a second request for a contact being erased answers the same job', async () => {
    const cat = (await s.api.post('/contacts', { email: 'cat@example.com' }).expect(201)).body.id as string;
    // Arranged in SQL: an erasure under way whose queue job was lost (a request answered, then the queue went down).
    const [row] = await s.db.query<{ id: string }>(
      `INSERT INTO contact_erasures (project_id, contact_id, requested_by_type, requested_by_id) VALUES ($1, $2, 'key', 'sk_test') RETURNING id`,
      [s.project.id, cat],
    );
    const again = await erase(s.api, cat);
    expect(again.jobId).toBe(`ers_${row.id.replace(/-/g, '')}`);
    await completed(again.jobId);
    expect(await countOf(`SELECT count(*)::int AS n FROM contact_erasures WHERE contact_id = $1`, [cat])).toBe(1);

    const list = (await s.api.get('/contacts/erasures').expect(200)).body;
    expect(list).toMatchObject({ hasMore: false, total: 2 });
    expect(list.data.map((e: { contactId: string }) => e.contactId)).toEqual([cat, ann]);
    expect(list.data[1]).toEqual({ id: expect.any(String), contactId: ann, status: 'completed', requestedBy: { type: 'key', id: expect.any(String) }, requestedAt: expect.any(String), completedAt: expect.any(String) });
    const text = JSON.stringify(list);
    expect(text).not.toMatch(/@example\.com/);
    const first = (await s.api.get('/contacts/erasures', { limit: 1 }).expect(200)).body;
    const second = (await s.api.get('/contacts/erasures', { limit: 1, cursor: first.cursor }).expect(200)).body;
    expect([...first.data, ...second.data].map((e: { contactId: string }) => e.contactId)).toEqual([cat, ann]);
    await s.api.get('/contacts/erasures', { cursor: 'not-a-cursor!' }).expect(400);
    await s.api.get('/contacts/erasures', { limit: '0' }).expect(422);
  });

  it('an address erased comes back unsubscribed by track and import; campaigns skip it (erased) until PATCH subscribed=true; transactional mail goes', async () => {
    const tracked = await s.api.post('/v1/track', { email: 'ANN@example.com', event: 'came-back' }).expect(200);
    const again = tracked.body.data.contact as string;
    expect(again).not.toBe(ann);
    expect((await s.api.get(`/contacts/${again}`).expect(200)).body.subscribed).toBe(false);

    const skipped = await stats(await sendCampaign('While erased'));
    expect(skipped.skipped).toMatchObject({ erased: 1 });
    // track with subscribed: true is not an explicit subscription: it flips the flag, the hold stays.
    await s.api.post('/v1/track', { email: 'ann@example.com', event: 'x', subscribed: true }).expect(200);
    expect((await stats(await sendCampaign('Still erased'))).skipped).toMatchObject({ erased: 1 });

    const direct = await s.api.post('/v1/send', { to: 'ann@example.com', from: 'hello@example.com', subject: 'Receipt', body: '<p>Receipt</p>' }).expect(200);
    const receipt = await s.read.emailSettled(direct.body.data.emails[0].email);
    expect(['sent', 'delivered']).toContain(receipt.status);

    await s.api.patch(`/contacts/${again}`, { subscribed: true }).expect(200);
    const reached = await stats(await sendCampaign('After subscribing'));
    expect(reached.skipped ?? {}).not.toHaveProperty('erased');
    expect(await countOf(`SELECT count(*)::int AS n FROM erased_addresses WHERE project_id = $1`, [s.project.id])).toBe(1); // cat's

    // Bob, erased from the dashboard (the owner's session), comes back through an import unsubscribed.
    const bob = (await s.read.contactByEmail('bob@example.com'))!.id;
    const byOwner = (await s.dashboard.post(`/contacts/${bob}/erase`).set('X-Project-Id', s.project.id).expect(202)).body;
    await completed(byOwner.jobId);
    await importContacts(s.http, bearer(s.keys.secret), 'email\nbob@example.com\ndan@example.com');
    expect((await s.read.contactByEmail('bob@example.com'))!.subscribed).toBe(false);
    expect((await s.read.contactByEmail('dan@example.com'))!.subscribed).toBe(true);
  });

  it('is for OWNER and ADMIN sessions and the secret key; another project sees 404; malformed ids are 404', async () => {
    const eve = (await s.api.post('/contacts', { email: 'eve@example.com' }).expect(201)).body.id as string;
    const member = await s.newUser();
    await s.dashboard.post(`/projects/${s.project.id}/members`, { email: member.email, role: 'MEMBER' }).expect(201);
    const asMember = member.dashboard;
    const job = (await s.api.get('/contacts/erasures').expect(200)).body.data[0].id as string;
    for (const res of [
      await asMember.post(`/contacts/${eve}/erase`).set('X-Project-Id', s.project.id),
      await asMember.get('/contacts/erasures').set('X-Project-Id', s.project.id),
      await asMember.get(`/contacts/erasures/${job}`).set('X-Project-Id', s.project.id),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    }
    await s.api.get(`/contacts/${eve}`).expect(200);

    await other.api.post(`/contacts/${eve}/erase`).expect(404);
    await other.api.get(`/contacts/erasures/${job}`).expect(404);
    expect((await other.api.get('/contacts/erasures').expect(200)).body).toMatchObject({ data: [], total: 0 });
    for (const id of ['nope', 'cnt_00000000000000000000000000000000', `${eve}x`, "' OR 1=1 --", '%00']) {
      const res = await s.api.post(`/contacts/${encodeURIComponent(id)}/erase`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    for (const id of ['nope', 'ers_zz', `${job}0`, 'blk_00000000000000000000000000000000', 'ers_00000000000000000000000000000000']) {
      expect((await s.api.get(`/contacts/erasures/${encodeURIComponent(id)}`)).status).toBe(404);
    }
    await s.anonymous.post(`/contacts/${eve}/erase`).expect(401);
    await s.api.get(`/contacts/${eve}`).expect(200);
  });

  it('a job that fails part-way resumes after its last step and completes once', async () => {
    const fay = (await s.api.post('/contacts', { email: 'fay@example.com' }).expect(201)).body.id as string;
    await s.api.post('/v1/track', { email: 'fay@example.com', event: 'signed-up' }).expect(200);
    // The inbound section's eraser fails once, as a database gone for a moment would: the queue retries the job.
    const registry = s.app.runtime.app.get(PersonalDataRegistry);
    const sections = (registry as unknown as { sections: Map<string, { erase: (...args: unknown[]) => Promise<void> }> }).sections;
    const inbound = sections.get('inboundMessages')!;
    const original = inbound.erase;
    let failures = 0;
    inbound.erase = async (...args: unknown[]) => {
      if (failures === 0) {
        failures += 1;
        throw new Error('simulated failure');
      }
      return original(...args);
    };
    try {
      const queued = await erase(s.api, fay);
      const id = queued.jobId;
      // Read in SQL: between the attempts the job stands at the last step done (no API shows the step), the contact still there.
      const row = await waitFor(async () => {
        const [r] = await s.db.query<{ status: string; step: string }>(`SELECT status, step FROM contact_erasures WHERE contact_id = $1`, [fay]);
        return failures === 1 ? r : undefined;
      }, 30_000, 20);
      expect(['running', 'completed']).toContain(row.status);
      await completed(id);
      expect(failures).toBe(1);
    } finally {
      inbound.erase = original;
    }
    await s.api.get(`/contacts/${fay}`).expect(404);
    expect(await countOf(`SELECT count(*)::int AS n FROM events WHERE project_id = $1 AND name = 'contact.erased' AND data->>'contactId' = $2`, [s.project.id, fay])).toBe(1);
    await hooks.waitForCall((c) => c.path === hookPath && (c.event?.data as { contactId?: string } | undefined)?.contactId === fay);
    // Give a duplicate delivery a moment to show up: there is none.
    await pause(1_000, 'a duplicate delivery would arrive within a second of the first');
    expect(hooks.received(hookPath).filter((c) => (c.event?.data as { contactId?: string } | undefined)?.contactId === fay)).toHaveLength(1);
  });
});

// Not on the session fixture: it spawns the service process and kills it with SIGKILL while erasures are queued or running.
describe('contact erasure across a crash', () => {
  jest.setTimeout(600_000);
  const CONTACTS = 40;

  it('finishes every erasure the kill interrupted, once, after the restart', async () => {
    await withKillableService('erasure', async ({ base, killAndRestart }) => {
      const project = await createProject(base);
      const auth = bearer(project.secretKey);
      const ids: string[] = [];
      for (let i = 0; i < CONTACTS; i++) {
        ids.push((await request(base).post('/contacts').set(auth).send({ email: `gone${i}@crash.example`, data: { n: i } }).expect(201)).body.id as string);
        await request(base).post('/v1/track').set(auth).send({ email: `gone${i}@crash.example`, event: 'signed-up' }).expect(200);
      }
      const jobs: string[] = [];
      for (const id of ids) jobs.push((await request(base).post(`/contacts/${id}/erase`).set(auth).expect(202)).body.jobId as string);
      // Killed at once: some erasures done, some running, the rest still queued.
      await killAndRestart();
      for (const jobId of jobs) {
        const done = await waitFor(async () => {
          const job = (await request(base).get(`/contacts/erasures/${jobId}`).set(auth).expect(200)).body as Erasure;
          return job.status === 'completed' || job.status === 'failed' ? job : undefined;
        }, 300_000, 100);
        expect(done.status).toBe('completed');
      }
      for (const id of ids) await request(base).get(`/contacts/${id}`).set(auth).expect(404);
      // Once: one contact.erased event per contact, whatever the kill interrupted.
      const erased = (await request(base).get('/events').query({ name: 'contact.erased', limit: 100 }).set(auth).expect(200)).body as { total: number; data: Array<{ data: { contactId: string } }> };
      expect(erased.total).toBe(CONTACTS);
      expect(new Set(erased.data.map((e) => e.data.contactId))).toEqual(new Set(ids));
    });
  });
});
