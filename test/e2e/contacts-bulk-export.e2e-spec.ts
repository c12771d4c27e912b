import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import type { App } from 'supertest/types';
import { ContactExportPurge } from '../../src/modules/contacts/worker/contact-export-purge';
import { ContactExportsRepository } from '../../src/modules/contacts/export/contact-exports.repository';
import { createProject, withKillableService } from '../support/app';
import { ApiClient, apiClient, bearer, importContacts, ProjectSession, sessionHeaders, useSession, waitFor } from '../support/session';

/**
 * Bulk contact exports (`POST /contacts/export`, docs/personal-data.md "Bulk export") through
 * HTTP: the CSV and NDJSON files of a small project, byte for byte (typed data columns, quoting of
 * commas, quotes and line breaks), segment and filter selections, statuses, downloads with the
 * key and a session, other projects' ids, bad requests, roles, the audit entry, a run that fails
 * part-way and completes once on its retry, the purge after 7 days, and an export whose process
 * is killed part-way finishing once after the restart.
 */

interface ContactBody {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

const filterTree = (...filters: Array<Record<string, unknown>>) => ({ logic: 'AND', groups: [{ filters }] });

describe('bulk contact export', () => {
  const s = useSession({}, { projectName: 'Bulk export A' });
  let other: ProjectSession;
  let owner: ApiClient;
  let contacts: ContactBody[];

  const exportsDir = () => join(s.app.dataDir, 'exports');
  const fieldsOf = (res: Response) => (res.body.error.errors as Array<{ field: string }>).map((e) => e.field);
  /** Requests an export and waits for it to complete; the statuses seen on the way, in order. */
  const exported = async (client: ApiClient, body: Record<string, unknown>) => {
    const created = await client.post('/contacts/export', body).expect(202);
    expect(created.body).toEqual({ jobId: expect.stringMatching(/^exp_[0-9a-f]{32}$/), status: 'queued' });
    const seen: string[] = ['queued'];
    const done = await waitFor(async () => {
      const res = await client.get(`/contacts/export/${created.body.jobId}`).expect(200);
      if (seen[seen.length - 1] !== res.body.status) seen.push(res.body.status);
      return res.body.status === 'completed' || res.body.status === 'failed' ? res.body : undefined;
    });
    return { jobId: created.body.jobId as string, job: done, seen };
  };
  const download = async (client: ApiClient, url: string) => {
    const res = await client.get(url).buffer(true).parse((r, done) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (chunk: string) => (text += chunk));
      r.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    return { text: res.body as string, headers: res.headers };
  };
  const byId = (list: ContactBody[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
  const csvLine = (c: ContactBody, cells: string[]) => [c.id, c.email, String(c.subscribed), c.createdAt, c.updatedAt, ...cells].join(',');

  beforeAll(async () => {
    other = await s.newProject('Bulk export B');
    owner = apiClient(s.http, { ...sessionHeaders(s.project.cookie), 'X-Project-Id': s.project.id });
    await s.api
      .post('/contacts', { email: 'ann@example.com', data: { plan: 'pro, yearly', seats: 3, vip: true, renewal: '2026-12-01', tags: ['a', 'b'], profile: { tier: 'say "hi"' } } })
      .expect(201);
    await s.api.post('/contacts', { email: 'bob@example.com', data: { plan: 'line one\nline two', seats: 1 } }).expect(201);
    await s.api.post('/contacts', { email: 'cy@example.com', subscribed: false }).expect(201);
    await other.api.post('/contacts', { email: 'other@example.com', data: { plan: 'theirs' } }).expect(201);
    contacts = [];
    for (const email of ['ann@example.com', 'bob@example.com', 'cy@example.com']) {
      const found = (await s.read.contactByEmail(email))!;
      contacts.push((await s.api.get(`/contacts/${found.id}`).expect(200)).body as ContactBody);
    }
  });

  const csvOf = (list: ContactBody[]) => {
    const cells = (c: ContactBody): string[] => {
      if (c.email === 'ann@example.com') return ['"pro, yearly"', '"say ""hi"""', '2026-12-01', '3', '"[""a"",""b""]"', 'true'];
      if (c.email === 'bob@example.com') return ['"line one\nline two"', '', '', '1', '', ''];
      return ['', '', '', '', '', ''];
    };
    // Data columns by key, as the fields list sorts them: plan, profile.tier, renewal, seats, tags, vip.
    const header = 'id,email,subscribed,createdAt,updatedAt,data.plan,data.profile.tier,data.renewal,data.seats,data.tags,data.vip';
    return [header, ...byId(list).map((c) => csvLine(c, cells(c)))].map((line) => `${line}\r\n`).join('');
  };

  it('exports every contact of the project to CSV: typed data columns, quoted cells, as an attachment', async () => {
    const { jobId, job, seen } = await exported(s.api, { format: 'csv' });
    expect(job).toMatchObject({ id: jobId, status: 'completed', format: 'csv', rows: 3, downloadUrl: `/contacts/export/${jobId}/download` });
    expect(['queued', 'running', 'completed'].filter((status) => seen.includes(status))).toEqual(seen);
    const file = await download(s.api, job.downloadUrl);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="contacts-${jobId}.csv"`);
    expect(file.text).toBe(csvOf(contacts));
  });

  it('exports NDJSON: one contact per line, as GET /contacts/:id shows it', async () => {
    const { jobId, job } = await exported(s.api, { format: 'ndjson' });
    expect(job).toMatchObject({ status: 'completed', format: 'ndjson', rows: 3 });
    const file = await download(owner, job.downloadUrl);
    expect(file.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="contacts-${jobId}.ndjson"`);
    expect(file.text).toBe(byId(contacts).map((c) => `${JSON.stringify(c)}\n`).join(''));
  });

  it("exports a filter's contacts and a segment's members", async () => {
    const unsubscribed = await exported(owner, { format: 'ndjson', filter: filterTree({ field: 'subscribed', operator: 'equals', value: false }) });
    expect(unsubscribed.job.rows).toBe(1);
    expect((await download(s.api, unsubscribed.job.downloadUrl)).text).toBe(`${JSON.stringify(contacts[2])}\n`);

    const segment = (await s.api.post('/segments', { name: 'Seats', condition: filterTree({ field: 'data.seats', operator: 'greaterThan', value: 2 }) }).expect(201)).body;
    const members = await exported(s.api, { format: 'csv', segmentId: segment.id });
    expect(members.job.rows).toBe(1);
    expect((await download(s.api, members.job.downloadUrl)).text).toBe(csvOf([contacts[0]]));

    const everyone = await exported(s.api, { format: 'ndjson', segmentId: null, filter: null });
    expect(everyone.job.rows).toBe(3);

    const none = await exported(s.api, { format: 'csv', filter: filterTree({ field: 'email', operator: 'contains', value: 'nobody' }) });
    expect(none.job.rows).toBe(0);
    expect((await download(s.api, none.job.downloadUrl)).text).toBe(csvOf([]));
  });

  it("answers 404 for another project's export or segment and for malformed ids", async () => {
    const { job } = await exported(s.api, { format: 'csv' });
    await other.api.get(`/contacts/export/${job.id}`).expect(404);
    await other.api.get(`/contacts/export/${job.id}/download`).expect(404);
    await s.api.get('/contacts/export/exp_nothere').expect(404);
    await s.api.get(`/contacts/export/${job.id.replace('exp_', 'blk_')}`).expect(404);
    await s.api.get('/contacts/export/exp_00000000000000000000000000000000/download').expect(404);
    const theirs = (await other.api.post('/segments', { name: 'Theirs', condition: filterTree({ field: 'data.plan', operator: 'equals', value: 'theirs' }) }).expect(201)).body;
    const refused = await s.api.post('/contacts/export', { format: 'csv', segmentId: theirs.id }).expect(404);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it('answers 422 naming the field for a bad format, segment id, filter, or both selections', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'format'],
      [{ format: 'xlsx' }, 'format'],
      [{ format: 'csv', segmentId: 'seg-1' }, 'segmentId'],
      [{ format: 'csv', filter: 'subscribed' }, 'filter'],
      [{ format: 'csv', segmentId: '00000000-0000-4000-8000-000000000000', filter: filterTree({ field: 'subscribed', operator: 'equals', value: true }) }, 'filter'],
      [{ format: 'csv', filter: filterTree({ field: 'nope', operator: 'equals', value: 1 }) }, 'filter.groups.0.filters.0.field'],
      [{ format: 'csv', filter: filterTree({ field: 'data.seats', operator: 'greaterThan', value: 'many' }) }, 'filter.groups.0.filters.0.value'],
    ];
    // In SQL: no endpoint lists exports; a refused request must write no row.
    const before = (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM contact_exports`))[0].n;
    for (const [body, field] of cases) {
      const res = await s.api.post('/contacts/export', body).expect(422);
      expect(fieldsOf(res).map((f) => f.replace(/\[(\d+)\]/g, '.$1'))).toContain(field);
    }
    // In SQL, as above.
    expect((await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM contact_exports`))[0].n).toBe(before);
  });

  it('is for managers: a MEMBER session gets 403, an ADMIN session exports; each request is in the audit log', async () => {
    const { jobId, job } = await exported(owner, { format: 'csv' });
    const member = await s.newUser();
    await s.dashboard.post(`/projects/${s.project.id}/members`, { email: member.email, role: 'MEMBER' }).expect(201);
    const asMember = apiClient(s.http, { ...sessionHeaders(member.cookie), 'X-Project-Id': s.project.id });
    await asMember.post('/contacts/export', { format: 'csv' }).expect(403);
    await asMember.get(`/contacts/export/${jobId}`).expect(403);
    await asMember.get(job.downloadUrl).expect(403);
    await s.dashboard.patch(`/projects/${s.project.id}/members/${member.id}`, { role: 'ADMIN' }).expect(200);
    expect((await download(asMember, job.downloadUrl)).text).toBe(csvOf(contacts));

    const log = await s.api.get('/audit-log', { action: 'contacts.exported' }).expect(200);
    const mine = log.body.data.find((e: { target: { id: string } }) => e.target.id === jobId);
    expect(mine).toMatchObject({ action: 'contacts.exported', actor: { type: 'user', id: s.project.userId }, target: { type: 'contact_export', id: jobId } });
    expect(log.body.data.some((e: { actor: { type: string } }) => e.actor.type === 'key')).toBe(true);
  });

  it('completes a run that failed part-way once, on its retry: one file, every contact once', async () => {
    // A run dies after its file is written (before it could complete the export): the job's retry starts a new run.
    const jobs = s.app.runtime.app.get(ContactExportsRepository);
    const complete = jobs.complete.bind(jobs);
    let failures = 0;
    jobs.complete = async (...args: Parameters<typeof complete>) => {
      if (failures++ === 0) throw new Error('interrupted before completing');
      return complete(...args);
    };
    try {
      const { jobId, job } = await exported(s.api, { format: 'csv' });
      expect(job).toMatchObject({ status: 'completed', rows: 3 });
      expect(failures).toBe(2);
      expect((await download(s.api, job.downloadUrl)).text).toBe(csvOf(contacts));
      const uuid = jobId.slice(4).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
      // In SQL: the run number is not on the API; the second run made the file.
      expect((await s.db.query<{ attempt: number }>(`SELECT attempt FROM contact_exports WHERE id = $1`, [uuid]))[0].attempt).toBe(2);
    } finally {
      jobs.complete = complete;
    }
  });

  it('deletes exports, files and rows, 7 days after they were requested', async () => {
    const { jobId, job } = await exported(s.api, { format: 'ndjson' });
    const uuid = jobId.slice(4).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
    expect(readdirSync(exportsDir()).filter((f) => f.startsWith(uuid))).toEqual([`${uuid}.1.ndjson`]);
    // Time travel in SQL: no endpoint ages an export.
    await s.db.query(`UPDATE contact_exports SET created_at = now() - interval '6 days 23 hours' WHERE id = $1`, [uuid]);
    await s.app.runtime.app.get(ContactExportPurge).runNow();
    await s.api.get(`/contacts/export/${jobId}`).expect(200);
    await s.db.query(`UPDATE contact_exports SET created_at = now() - interval '7 days 1 minute' WHERE id = $1`, [uuid]);
    await s.app.runtime.app.get(ContactExportPurge).runNow();
    await s.api.get(`/contacts/export/${jobId}`).expect(404);
    await s.api.get(job.downloadUrl).expect(404);
    expect(existsSync(join(exportsDir(), `${uuid}.1.ndjson`))).toBe(false);
  });
});

// Not on the session fixture: it spawns the service process and kills it with SIGKILL mid-export.
describe('bulk contact export across a crash', () => {
  jest.setTimeout(600_000);
  const CONTACTS = 20_000;

  it('finishes an export whose process was killed part-way, once, after the restart', async () => {
    await withKillableService('export', async ({ base, dataDir, killAndRestart }) => {
      const project = await createProject(base);
      const auth = bearer(project.secretKey);
      const csv = ['email,n', ...Array.from({ length: CONTACTS }, (_, i) => `c${i}@crash.example,${i}`)].join('\n');
      await importContacts(base as unknown as App, auth, csv);
      const jobId = (await request(base).post('/contacts/export').set(auth).send({ format: 'csv' }).expect(202)).body.jobId as string;
      const uuid = jobId.slice(4).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
      // The kill comes once the first run has begun its file (white-box: the file's name is the only sign of a run).
      const exports = join(dataDir, 'exports');
      await waitFor(async () => (existsSync(exports) && readdirSync(exports).includes(`.${uuid}.1.part`) ? true : undefined), 120_000, 5);
      await killAndRestart();
      const done = await waitFor(
        async () => {
          const job = (await request(base).get(`/contacts/export/${jobId}`).set(auth).expect(200)).body;
          return job.status === 'completed' || job.status === 'failed' ? job : undefined;
        },
        300_000,
        200,
      );
      expect(done).toMatchObject({ status: 'completed', rows: CONTACTS });
      const file = await request(base).get(done.downloadUrl).set(auth).buffer(true).parse((r, cb) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => (text += chunk));
        r.on('end', () => cb(null, text));
      });
      const lines = (file.body as string).split('\r\n');
      expect(lines[0]).toBe('id,email,subscribed,createdAt,updatedAt,data.n');
      expect(lines.at(-1)).toBe('');
      const emails = lines.slice(1, -1).map((line) => line.split(',')[1]);
      expect(emails).toHaveLength(CONTACTS);
      expect(new Set(emails).size).toBe(CONTACTS);
      // White-box: a second run made the file, and the first run's partial file is gone.
      expect(readdirSync(exports).filter((f) => f.includes(uuid))).toEqual([`${uuid}.2.csv`]);
    });
  });
});
