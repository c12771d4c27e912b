import request from 'supertest';
import { DataSource } from 'typeorm';
import { BulkRunner } from '../../src/modules/contacts/bulk/bulk-runner';
import { bulkJobIds } from '../../src/modules/contacts/import/job-id';
import { createProject, startTestApp, TestApp, TestProject, waitFor } from '../support/app';
import { projectSession } from '../support/session';

/*
 * White-box: the bulk_jobs count for "no job created" (no endpoint lists bulk jobs), and, in the
 * worker idempotency test, contacts with chosen ids inserted directly (the API assigns ids) and
 * the runner called directly (an API-only process has no worker to run it).
 */

interface BulkJob {
  jobId: string;
  operation: string;
  status: string;
  progress: number;
  totalRequested: number;
  successCount: number;
  unchangedCount: number;
  failureCount: number;
  errors: Array<{ contactId: string; error: string }>;
}

describe('bulk contact operations', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const auth = (p: TestProject) => ({ Authorization: `Bearer ${p.secretKey}` });

  async function createContact(p: TestProject, email: string, subscribed: boolean): Promise<string> {
    const res = await request(app.http).post('/contacts').set(auth(p)).send({ email, subscribed }).expect(201);
    return res.body.id;
  }

  async function getContact(p: TestProject, id: string) {
    return request(app.http).get(`/contacts/${id}`).set(auth(p));
  }

  async function run(p: TestProject, path: string, contactIds: unknown): Promise<BulkJob> {
    const res = await request(app.http).post(`/contacts/${path}`).set(auth(p)).send({ contactIds }).expect(202);
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^blk_[0-9a-f]{32}$/), status: 'queued' });
    return waitFor(async () => {
      const job = await request(app.http).get(`/contacts/bulk/${res.body.jobId}`).set(auth(p)).expect(200);
      return job.body.status === 'completed' || job.body.status === 'failed' ? (job.body as BulkJob) : undefined;
    });
  }

  async function subscriptionEvents(p: TestProject, contactId: string): Promise<string[]> {
    const res = await request(app.http).get(`/events/contact/${contactId}`).set(auth(p)).expect(200);
    return res.body.data.map((e: { name: string }) => e.name).filter((n: string) => n.startsWith('contact.'));
  }

  it('unsubscribes and subscribes, counting flips, unchanged ids, repeats and failures; flips emit events', async () => {
    const p = await createProject(app.http);
    const stranger = await createProject(app.http);
    const on1 = await createContact(p, 'on1@example.com', true);
    const on2 = await createContact(p, 'on2@example.com', true);
    const off = await createContact(p, 'off@example.com', false);
    const foreign = await createContact(stranger, 'foreign@example.com', true);
    const missing = 'cnt_' + '0'.repeat(32);

    const job = await run(p, 'bulk-unsubscribe', [on1, off, foreign, 'garbage', on2, on1, missing]);
    expect(job).toEqual({
      jobId: expect.any(String),
      operation: 'unsubscribe',
      status: 'completed',
      progress: 100,
      totalRequested: 7,
      successCount: 2,
      unchangedCount: 2,
      failureCount: 3,
      errors: [
        { contactId: foreign, error: 'not_found' },
        { contactId: 'garbage', error: 'invalid_id' },
        { contactId: missing, error: 'not_found' },
      ],
      createdAt: expect.any(String),
      completedAt: expect.any(String),
    });
    expect((await getContact(p, on1)).body.subscribed).toBe(false);
    expect((await getContact(p, on2)).body.subscribed).toBe(false);
    expect((await getContact(stranger, foreign)).body.subscribed).toBe(true);
    expect(await subscriptionEvents(p, on1)).toEqual(['contact.unsubscribed']);
    expect(await subscriptionEvents(p, off)).toEqual([]);
    expect(await subscriptionEvents(stranger, foreign)).toEqual([]);

    const back = await run(p, 'bulk-subscribe', [on1, off, on2]);
    expect(back).toMatchObject({ operation: 'subscribe', status: 'completed', successCount: 3, unchangedCount: 0, failureCount: 0, errors: [] });
    expect((await getContact(p, off)).body.subscribed).toBe(true);
    expect(await subscriptionEvents(p, off)).toEqual(['contact.subscribed']);
    expect((await subscriptionEvents(p, on1)).sort()).toEqual(['contact.subscribed', 'contact.unsubscribed']);
  });

  it('deletes only the caller’s contacts', async () => {
    const p = await createProject(app.http);
    const stranger = await createProject(app.http);
    const a = await createContact(p, 'a@example.com', true);
    const b = await createContact(p, 'b@example.com', false);
    const keep = await createContact(p, 'keep@example.com', true);
    const foreign = await createContact(stranger, 'foreign@example.com', true);
    const job = await run(p, 'bulk-delete', [a, b, foreign, b]);
    expect(job).toMatchObject({
      operation: 'delete',
      status: 'completed',
      progress: 100,
      totalRequested: 4,
      successCount: 2,
      unchangedCount: 1,
      failureCount: 1,
      errors: [{ contactId: foreign, error: 'not_found' }],
    });
    await getContact(p, a).then((r) => expect(r.status).toBe(404));
    await getContact(p, b).then((r) => expect(r.status).toBe(404));
    await getContact(p, keep).then((r) => expect(r.status).toBe(200));
    await getContact(stranger, foreign).then((r) => expect(r.status).toBe(200));
    const again = await run(p, 'bulk-delete', [a]);
    expect(again).toMatchObject({ successCount: 0, failureCount: 1, errors: [{ contactId: a, error: 'not_found' }] });
  });

  it('handles 1,000 ids in one call, set-based, with one event per flip', async () => {
    const p = await createProject(app.http);
    const lines = ['email'];
    for (let i = 0; i < 1000; i++) lines.push(`m${i}@example.com`);
    const imported = await request(app.http).post('/contacts/import').set(auth(p)).attach('file', Buffer.from(lines.join('\n')), 'c.csv').expect(202);
    await waitFor(async () => {
      const res = await request(app.http).get(`/contacts/import/${imported.body.jobId}`).set(auth(p)).expect(200);
      return res.body.status === 'completed' ? true : undefined;
    });
    const ids = (await projectSession(app.http, p).read.contacts()).map((c) => c.id);
    expect(ids).toHaveLength(1000);
    const job = await run(p, 'bulk-unsubscribe', ids);
    expect(job).toMatchObject({ status: 'completed', progress: 100, totalRequested: 1000, successCount: 1000, failureCount: 0 });
    const names = await request(app.http).get('/events/names').set(auth(p)).expect(200);
    expect(names.body.names.find((n: { name: string }) => n.name === 'contact.unsubscribed')?.count).toBe(1000);
    const subscribed = await request(app.http).get('/contacts?subscribed=true').set(auth(p)).expect(200);
    expect(subscribed.body.total).toBe(0);
  });

  describe('bad input', () => {
    let p: TestProject;
    let id: string;
    beforeAll(async () => {
      p = await createProject(app.http);
      id = await createContact(p, 'victim@example.com', true);
    });

    async function rejects(body: unknown, field = 'contactIds') {
      for (const path of ['bulk-subscribe', 'bulk-unsubscribe', 'bulk-delete']) {
        const res = await request(app.http).post(`/contacts/${path}`).set(auth(p)).send(body as object).expect(422);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      // Read in SQL: no endpoint lists a project's bulk jobs (only GET /contacts/bulk/:id), so none stored is read here.
      const jobs = await app.runtime.app.get(DataSource).query(`SELECT count(*)::int AS n FROM bulk_jobs WHERE project_id = $1`, [p.id]);
      expect(jobs[0].n).toBe(0);
      expect((await getContact(p, id)).status).toBe(200);
    }

    it('rejects 1,001 ids with 422', async () => {
      const res = await request(app.http)
        .post('/contacts/bulk-delete')
        .set(auth(p))
        .send({ contactIds: Array.from({ length: 1001 }, () => id) })
        .expect(422);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'contactIds', code: 'too_big' });
      await rejects({ contactIds: Array.from({ length: 1001 }, () => id) });
    });

    it('rejects an empty list, a missing list and wrong types with 422', async () => {
      await rejects({ contactIds: [] });
      await rejects({});
      await rejects({ contactIds: id });
      await rejects({ contactIds: { a: id } });
      await rejects({ contactIds: [id, 42] });
      await rejects({ contactIds: [null] });
    });

    it('answers malformed JSON with 400', async () => {
      const res = await request(app.http).post('/contacts/bulk-delete').set(auth(p)).set('Content-Type', 'application/json').send('{"contactIds":[').expect(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    });

    it('requires the secret key', async () => {
      await request(app.http).post('/contacts/bulk-delete').send({ contactIds: [id] }).expect(401);
      await request(app.http).post('/contacts/bulk-delete').set('Authorization', `Bearer ${p.publicKey}`).send({ contactIds: [id] }).expect(401);
      expect((await getContact(p, id)).status).toBe(200);
    });

    it('hides another project’s job and answers unknown or malformed job ids with 404', async () => {
      const stranger = await createProject(app.http);
      const job = await run(p, 'bulk-subscribe', [id]);
      await request(app.http).get(`/contacts/bulk/${job.jobId}`).set(auth(stranger)).expect(404);
      for (const bad of [`blk_${'0'.repeat(32)}`, 'blk_1', 'imp_' + job.jobId.slice(4), 'nope']) {
        const res = await request(app.http).get(`/contacts/bulk/${bad}`).set(auth(p)).expect(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    });
  });

  // Last: a second app in the same process; closing it must not precede other tests' requests.
  describe('worker idempotency', () => {
    let apiOnly: TestApp;
    beforeAll(async () => {
      apiOnly = await startTestApp({ ROLE: 'api' });
    });
    afterAll(() => apiOnly?.close());

    it('stays queued without workers; concurrent and repeated runs apply and count every id once', async () => {
      const p = await createProject(apiOnly.http);
      const ids: string[] = [];
      for (let i = 0; i < 600; i++) ids.push('cnt_' + i.toString(16).padStart(32, '0'));
      // Arranged in SQL: contacts with ids of the legacy cnt_ form, which no endpoint creates.
      const made: Array<{ id: string }> = await apiOnly.runtime.app.get(DataSource).query(
        `INSERT INTO contacts (id, project_id, email) SELECT id, $1, id || '@example.com' FROM unnest($2::text[]) id RETURNING id`,
        [p.id, ids.slice(0, 500)],
      );
      expect(made).toHaveLength(500);
      const res = await request(apiOnly.http).post('/contacts/bulk-unsubscribe').set(auth(p)).send({ contactIds: ids }).expect(202);
      const get = () => request(apiOnly.http).get(`/contacts/bulk/${res.body.jobId}`).set(auth(p)).expect(200);
      expect((await get()).body).toMatchObject({ status: 'queued', progress: 0, successCount: 0 });
      const runner = apiOnly.runtime.app.get(BulkRunner);
      const id = bulkJobIds.fromWire(res.body.jobId)!;
      await Promise.all([runner.run(p.id, id), runner.run(p.id, id)]);
      await runner.run(p.id, id);
      const job = (await get()).body as BulkJob;
      expect(job).toMatchObject({ status: 'completed', progress: 100, totalRequested: 600, successCount: 500, unchangedCount: 0, failureCount: 100 });
      expect(job.errors).toHaveLength(100);
      expect((await projectSession(apiOnly.http, p).read.events({ name: 'contact.unsubscribed' })).length).toBe(500);
    });
  });
});
