import request from 'supertest';
import { DataSource } from 'typeorm';
import { IMPORT_BATCH_ROWS, ImportRunner } from '../../src/modules/contacts/import/import-runner';
import { importJobIds } from '../../src/modules/contacts/import/job-id';
import { createProject, startTestApp, TestApp, TestProject, waitFor } from '../support/app';
import { useSession } from '../support/session';

interface ImportJob {
  jobId: string;
  status: string;
  totalRows: number;
  processedRows: number;
  imported: number;
  updated: number;
  skipped: number;
  errors: Array<{ row: number; email: string; reason: string }>;
}

interface ContactBody {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
}

const BOM = '\uFEFF';

describe('CSV import', () => {
  const s = useSession();
  let app: TestApp;
  let project: TestProject;
  beforeAll(() => {
    app = s.app;
    project = s.project;
  });

  const auth = (p: TestProject) => ({ Authorization: `Bearer ${p.secretKey}` });

  function upload(p: TestProject, content: string | Buffer, filename = 'contacts.csv') {
    const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    return request(app.http).post('/contacts/import').set(auth(p)).attach('file', body, { filename, contentType: 'text/csv' });
  }

  async function finished(p: TestProject, jobId: string): Promise<ImportJob> {
    return waitFor(async () => {
      const res = await request(app.http).get(`/contacts/import/${jobId}`).set(auth(p)).expect(200);
      return res.body.status === 'completed' || res.body.status === 'failed' ? (res.body as ImportJob) : undefined;
    }, 30_000);
  }

  async function importCsv(p: TestProject, content: string | Buffer): Promise<ImportJob> {
    const res = await upload(p, content).expect(202);
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^imp_[0-9a-f]{32}$/), status: 'queued' });
    return finished(p, res.body.jobId);
  }

  const contact = (p: TestProject, email: string): Promise<ContactBody | undefined> => s.as(p).read.contactByEmail(email);
  const contactCount = (p: TestProject): Promise<number> => s.as(p).read.contactCount();

  it('fails at once, naming the limit, when the file passes keysPerProject (no retries: a limit is not transient)', async () => {
    const p = await s.newProject('Import over keysPerProject');
    const keys = (from: number) => Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`f${from + i}`, i]));
    for (let c = 0; c < 10; c++) await p.api.post('/contacts', { email: `keys${c}@example.com`, data: keys(c * 1_000) }).expect(201);
    const started = Date.now();
    const job = await importCsv(p.project, 'email,one_more\nnew@example.com,1\n');
    expect(job).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('keysPerProject'), imported: 0 });
    // Retried, the job stayed `processing` for minutes before failing.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await contactCount(p.project)).toBe(10);
  });

  it('types cells by the CSV rules and creates contacts subscribed', async () => {
    const p = await createProject(app.http);
    const csv = [
      'email,First Name,age,score,neg,vip,active,zip,phone,big,code,joined,seen,plain,note',
      'Ann@Example.com,Ann,41,3.5,-2,yes,FALSE,00501,+15550100,12345678901234567890,1e5,2024-05-01,2024-05-01T10:20:30+02:00,2024-05-01 10:00,"Hello, world"',
    ].join('\n');
    const job = await importCsv(p, csv);
    expect(job).toMatchObject({ status: 'completed', totalRows: 1, processedRows: 1, imported: 1, updated: 0, skipped: 0, errors: [] });
    const ann = await contact(p, 'ann@example.com');
    expect(ann).toMatchObject({ email: 'ann@example.com', subscribed: true });
    expect(ann?.data).toEqual({
      'first name': 'Ann',
      age: 41,
      score: 3.5,
      neg: -2,
      vip: true,
      active: false,
      zip: '00501',
      phone: '+15550100',
      big: '12345678901234567890',
      code: '1e5',
      joined: '2024-05-01',
      seen: '2024-05-01T08:20:30.000Z',
      plain: '2024-05-01 10:00',
      note: 'Hello, world',
    });
  });

  it('infers field types for the new keys', async () => {
    const p = await createProject(app.http);
    await importCsv(p, 'email,Plan,seats,trial,renews\na@example.com,pro,5,no,2025-01-01\nb@example.com,free,,yes,\n');
    const res = await request(app.http).get('/contacts/fields').set(auth(p)).expect(200);
    const types = Object.fromEntries(res.body.fields.filter((f: { isCustom: boolean }) => f.isCustom).map((f: { field: string; type: string }) => [f.field, f.type]));
    expect(types).toEqual({ 'data.plan': 'string', 'data.seats': 'number', 'data.trial': 'boolean', 'data.renews': 'date' });
  });

  it('drops id, subscribed, createdAt, updatedAt and the URL variables', async () => {
    const p = await createProject(app.http);
    const job = await importCsv(
      p,
      'id,email,subscribed,createdAt,updatedAt,unsubscribeUrl,subscribeUrl,manageUrl,plan\ncnt_x,drop@example.com,false,2020-01-01,2020-01-01,http://u,http://s,http://m,pro\n',
    );
    expect(job).toMatchObject({ status: 'completed', imported: 1 });
    const c = await contact(p, 'drop@example.com');
    expect(c?.subscribed).toBe(true);
    expect(c?.data).toEqual({ plan: 'pro' });
    expect(c?.id).toMatch(/^cnt_/);
    expect(c?.id).not.toBe('cnt_x');
  });

  it('reads UTF-8 with a BOM, CRLF line ends and quoted fields with commas, quotes and line breaks', async () => {
    const p = await createProject(app.http);
    const csv = `${BOM}Email,Name,Bio\r\nzoe@example.com,Zoë,"Likes commas, ""quotes""\r\nand new lines"\r\n"yan@example.com","Yan 🚀",plain\r\n`;
    const job = await importCsv(p, csv);
    expect(job).toMatchObject({ status: 'completed', totalRows: 2, imported: 2, skipped: 0 });
    expect((await contact(p, 'zoe@example.com'))?.data).toEqual({ name: 'Zoë', bio: 'Likes commas, "quotes"\r\nand new lines' });
    expect((await contact(p, 'yan@example.com'))?.data).toEqual({ name: 'Yan 🚀', bio: 'plain' });
  });

  it('reports missing, invalid and repeated emails by row (header is row 1) and merges repeats', async () => {
    const p = await createProject(app.http);
    const csv = [
      'email,plan,city',
      'a@example.com,free,Paris', // row 2
      ',pro,Rome', // row 3: missing
      'not-an-email,pro,Rome', // row 4: invalid
      '"b@example.com","multi', // row 5: the quoted line break does not add a row
      'line",Oslo',
      '', // row 6: blank, ignored
      'A@EXAMPLE.COM,pro,', // row 7: duplicate of row 2, merges
      '"c@example.com\r\nBcc: x@example.com",pro,Rome', // row 8: header injection attempt is invalid
    ].join('\n');
    const job = await importCsv(p, csv);
    expect(job).toMatchObject({ status: 'completed', totalRows: 6, processedRows: 6, imported: 2, updated: 1, skipped: 3 });
    expect(job.errors).toEqual([
      { row: 3, email: '', reason: 'missing_email' },
      { row: 4, email: 'not-an-email', reason: 'invalid_email' },
      { row: 7, email: 'a@example.com', reason: 'duplicate_in_file' },
      { row: 8, email: 'c@example.com\r\nBcc: x@example.com', reason: 'invalid_email' },
    ]);
    expect((await contact(p, 'a@example.com'))?.data).toEqual({ plan: 'pro', city: 'Paris' });
    expect((await contact(p, 'b@example.com'))?.data).toEqual({ plan: 'multi\nline', city: 'Oslo' });
    expect(await contactCount(p)).toBe(2);
  });

  it('patches existing contacts: keeps other keys and the subscription, ignores empty cells', async () => {
    const p = await createProject(app.http);
    await request(app.http)
      .post('/contacts')
      .set(auth(p))
      .send({ email: 'old@example.com', subscribed: false, data: { plan: 'free', city: 'Lyon', keep: 'me' } })
      .expect(201);
    const job = await importCsv(p, 'email,plan,city\nold@example.com,pro,\nnew@example.com,free,Nice\n');
    expect(job).toMatchObject({ status: 'completed', imported: 1, updated: 1, skipped: 0 });
    const old = await contact(p, 'old@example.com');
    expect(old).toMatchObject({ subscribed: false, data: { plan: 'pro', city: 'Lyon', keep: 'me' } });
    expect((await contact(p, 'new@example.com'))?.subscribed).toBe(true);
  });

  it('re-uploading the same file updates in place', async () => {
    const p = await createProject(app.http);
    const csv = 'email,plan\nr1@example.com,pro\nr2@example.com,free\n';
    const first = await importCsv(p, csv);
    const before = await contact(p, 'r1@example.com');
    const second = await importCsv(p, csv);
    expect(first).toMatchObject({ imported: 2, updated: 0 });
    expect(second).toMatchObject({ status: 'completed', imported: 0, updated: 2, skipped: 0, errors: [] });
    expect(await contactCount(p)).toBe(2);
    expect((await contact(p, 'r1@example.com'))?.id).toBe(before?.id);
    const third = await importCsv(p, 'email,plan\nr1@example.com,team\n');
    expect(third).toMatchObject({ updated: 1 });
    expect((await contact(p, 'r1@example.com'))?.data).toEqual({ plan: 'team' });
  });

  it('imports a header-only file as an empty completed job', async () => {
    const job = await importCsv(project, 'email,plan\n');
    expect(job).toMatchObject({ status: 'completed', totalRows: 0, processedRows: 0, imported: 0, updated: 0, skipped: 0, errors: [] });
  });

  it('writes many rows in batches, counting repeats across batches once', async () => {
    const p = await createProject(app.http);
    const lines = ['email,n,group'];
    for (let i = 0; i < 11000; i++) lines.push(`user${i}@example.com,${i},g${i % 7}`);
    for (let i = 0; i < 10; i++) lines.push(`user${i}@example.com,${i + 20000},late`);
    const job = await importCsv(p, lines.join('\n'));
    expect(IMPORT_BATCH_ROWS).toBeLessThan(11000 / 2);
    expect(job).toMatchObject({ status: 'completed', totalRows: 11010, processedRows: 11010, imported: 11000, updated: 10, skipped: 0 });
    expect(job.errors).toHaveLength(10);
    expect(job.errors[0]).toEqual({ row: 11002, email: 'user0@example.com', reason: 'duplicate_in_file' });
    expect((await contact(p, 'user3@example.com'))?.data).toEqual({ n: 20003, group: 'late' });
    expect((await contact(p, 'user10999@example.com'))?.data).toEqual({ n: 10999, group: 'g2' });
    expect(await contactCount(p)).toBe(11000);
  });

  it('lets the later cells win when the next batch repeats an email of the batch before (batches written side by side)', async () => {
    const p = await createProject(app.http);
    const lines = ['email,n,tier'];
    for (let i = 0; i < IMPORT_BATCH_ROWS * 2; i++) lines.push(`side${i}@example.com,${i},`);
    // Rows of the second and third batches: repeats of the first batch's last and first rows.
    lines[IMPORT_BATCH_ROWS + 10] = `side${IMPORT_BATCH_ROWS - 1}@example.com,-1,gold`;
    lines[IMPORT_BATCH_ROWS * 2] = `side0@example.com,-2,silver`;
    lines.push('side1@example.com,-3,bronze');
    const job = await importCsv(p, lines.join('\n'));
    expect(job).toMatchObject({ status: 'completed', totalRows: IMPORT_BATCH_ROWS * 2 + 1, imported: IMPORT_BATCH_ROWS * 2 - 2, updated: 3, skipped: 0 });
    expect(job.errors.map((e) => e.email)).toEqual([`side${IMPORT_BATCH_ROWS - 1}@example.com`, 'side0@example.com', 'side1@example.com']);
    expect((await contact(p, `side${IMPORT_BATCH_ROWS - 1}@example.com`))?.data).toEqual({ n: -1, tier: 'gold' });
    expect((await contact(p, 'side0@example.com'))?.data).toEqual({ n: -2, tier: 'silver' });
    expect((await contact(p, 'side1@example.com'))?.data).toEqual({ n: -3, tier: 'bronze' });
    expect(await contactCount(p)).toBe(IMPORT_BATCH_ROWS * 2 - 2);
  });

  describe('bad input', () => {
    async function rejects(content: string | Buffer, status: number, code: string) {
      const p = await createProject(app.http);
      const res = await upload(p, content).expect(status);
      expect(res.body).toMatchObject({ success: false, error: { code, statusCode: status, requestId: expect.any(String) } });
      expect(await contactCount(p)).toBe(0);
      // Read in SQL: no endpoint lists a project's import jobs (only GET /contacts/import/:id), so none stored is read here.
      const jobs = await app.runtime.app.get(DataSource).query(`SELECT count(*)::int AS n FROM import_jobs WHERE project_id = $1`, [p.id]);
      expect(jobs[0].n).toBe(0);
      return res;
    }

    it('rejects a file over 5 MB with 413', async () => {
      const row = 'someone@example.com,' + 'x'.repeat(80) + '\n';
      const big = 'email,pad\n' + row.repeat(Math.ceil((5 * 1024 * 1024) / row.length) + 1);
      await rejects(big, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('accepts a file of exactly 5 MB', async () => {
      const p = await createProject(app.http);
      const header = 'email,pad\n';
      const row = 'exact@example.com,y\n';
      const body = Buffer.alloc(5 * 1024 * 1024, ' ');
      body.write(header + row);
      // Trailing spaces make one more (blank) record: still a valid CSV at the byte limit.
      const res = await upload(p, body).expect(202);
      const job = await finished(p, res.body.jobId);
      expect(job).toMatchObject({ status: 'completed', imported: 1 });
    });

    it('rejects binary data with 400', async () => {
      const res = await rejects(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]), 400, 'BAD_REQUEST');
      expect(res.body.error.details).toEqual({ reason: 'binary' });
    });

    it('rejects text with NUL bytes with 400', async () => {
      await rejects(Buffer.from('email,name\na@example.com,\u0000x\n', 'utf8'), 400, 'BAD_REQUEST');
    });

    it('rejects invalid UTF-8 (e.g. Latin-1) with 400', async () => {
      const res = await rejects(Buffer.concat([Buffer.from('email,name\na@example.com,Ren'), Buffer.from([0xe9, 0x0a])]), 400, 'BAD_REQUEST');
      expect(res.body.error.details).toEqual({ reason: 'encoding' });
    });

    it('rejects a file without an email column with 400', async () => {
      const res = await rejects('name,plan\nAnn,pro\n', 400, 'BAD_REQUEST');
      expect(res.body.error.details).toEqual({ reason: 'no_email_column' });
    });

    it('rejects an empty file with 400', async () => {
      await rejects('', 400, 'BAD_REQUEST');
    });

    it('rejects a request without the file part with 400', async () => {
      const p = await createProject(app.http);
      const json = await request(app.http).post('/contacts/import').set(auth(p)).send({ file: 'email\na@example.com' }).expect(400);
      expect(json.body.error.code).toBe('BAD_REQUEST');
      const noFile = await request(app.http).post('/contacts/import').set(auth(p)).field('other', 'x').expect(400);
      expect(noFile.body.error.code).toBe('BAD_REQUEST');
    });

    it('rejects a file sent under another part name with 400', async () => {
      const p = await createProject(app.http);
      const res = await request(app.http).post('/contacts/import').set(auth(p)).attach('csv', Buffer.from('email\na@example.com\n'), 'c.csv').expect(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    });

    it('requires the secret key', async () => {
      await request(app.http).post('/contacts/import').attach('file', Buffer.from('email\n'), 'c.csv').expect(401);
      const res = await request(app.http)
        .post('/contacts/import')
        .set('Authorization', `Bearer ${project.publicKey}`)
        .attach('file', Buffer.from('email\n'), 'c.csv')
        .expect(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    });
  });

  describe('column mapping', () => {
    const withMapping = (p: TestProject, content: string, mapping: unknown, headers: Record<string, string> = auth(p)) =>
      request(app.http)
        .post('/contacts/import')
        .set(headers)
        .field('mapping', typeof mapping === 'string' ? mapping : JSON.stringify(mapping))
        .attach('file', Buffer.from(content, 'utf8'), { filename: 'contacts.csv', contentType: 'text/csv' });

    it('stores columns under the mapped keys, skips null ones, and keeps the derived key for the rest', async () => {
      const p = await createProject(app.http);
      const csv = `${BOM}email, First Name ,Last Name,Notes,id\nmap@example.com,Ada,Lovelace,private,42\n`;
      const res = await withMapping(p, csv, { 'First Name': 'firstName', Notes: null, id: 'legacyId' }).expect(202);
      const job = await finished(p, res.body.jobId);
      expect(job).toMatchObject({ status: 'completed', imported: 1, errors: [] });
      expect((await contact(p, 'map@example.com'))?.data).toEqual({ firstName: 'Ada', 'last name': 'Lovelace', legacyId: 42 });
      const fields = (await request(app.http).get('/contacts/fields').set(auth(p)).expect(200)).body.fields as Array<{ field: string; type: string }>;
      expect(fields).toContainEqual(expect.objectContaining({ field: 'data.legacyId', type: 'number' }));
      expect(fields.map((f) => f.field)).not.toContain('data.notes');
    });

    it('is taken from the dashboard session (with the CSRF header) like the file', async () => {
      const p = await createProject(app.http);
      const headers = { Cookie: p.cookie, 'X-Project-Id': p.id, 'X-Requested-With': 'XMLHttpRequest' };
      const res = await withMapping(p, 'email,First Name\nsession@example.com,Grace\n', { 'First Name': 'firstName' }, headers).expect(202);
      await finished(p, res.body.jobId);
      expect((await contact(p, 'session@example.com'))?.data).toEqual({ firstName: 'Grace' });
    });

    it('refuses a bad mapping with 422, one item per problem, and creates no job', async () => {
      const p = await createProject(app.http);
      const csv = 'email,First Name,Last Name,plan\nbad@example.com,A,B,pro\n';
      const cases: Array<[unknown, Array<{ field: string; code: string }>]> = [
        ['{nope', [{ field: 'mapping', code: 'invalid_json' }]],
        [['firstName'], [{ field: 'mapping', code: 'invalid_type' }]],
        [{ 'First Name': '' }, [{ field: 'mapping.First Name', code: 'too_small' }]],
        [{ 'First Name': 'first.name', plan: 'email' }, [{ field: 'mapping.First Name', code: 'invalid_string' }, { field: 'mapping.plan', code: 'reserved_key' }]],
        [{ 'First Name': 'name', 'Last Name': 'name' }, [{ field: 'mapping.Last Name', code: 'duplicate_key' }]],
        [{ 'Last Name': 'plan' }, [{ field: 'mapping.Last Name', code: 'duplicate_key' }]],
        [{ Missing: 'x' }, [{ field: 'mapping.Missing', code: 'unknown_column' }]],
        [{ email: 'mail' }, [{ field: 'mapping.email', code: 'email_column' }]],
      ];
      for (const [mapping, items] of cases) {
        const res = await withMapping(p, csv, mapping).expect(422);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.errors.map(({ field, code }: { field: string; code: string }) => ({ field, code }))).toEqual(items);
      }
      // The file's own problems come first: a mapping does not hide a missing email column (400).
      await withMapping(p, 'name\nA\n', { name: 'x' }).expect(400);
      // Read in SQL: no endpoint lists a project's import jobs, so none stored is read here.
      const jobs = await app.runtime.app.get(DataSource).query(`SELECT count(*)::int AS n FROM import_jobs WHERE project_id = $1`, [p.id]);
      expect(jobs[0].n).toBe(0);
      expect(await contactCount(p)).toBe(0);
    });

    it('an empty mapping part imports as before', async () => {
      const p = await createProject(app.http);
      const res = await withMapping(p, 'email,First Name\nplain@example.com,Ann\n', '').expect(202);
      await finished(p, res.body.jobId);
      expect((await contact(p, 'plain@example.com'))?.data).toEqual({ 'first name': 'Ann' });
    });
  });

  describe('job lookup', () => {
    it('hides another project’s job and answers unknown or malformed ids with 404', async () => {
      const owner = await createProject(app.http);
      const stranger = await createProject(app.http);
      const res = await upload(owner, 'email\nmine@example.com\n').expect(202);
      await finished(owner, res.body.jobId);
      await request(app.http).get(`/contacts/import/${res.body.jobId}`).set(auth(stranger)).expect(404);
      await request(app.http).get(`/contacts/import/imp_${'0'.repeat(32)}`).set(auth(owner)).expect(404);
      for (const bad of ['nope', 'imp_123', `imp_${'Z'.repeat(32)}`, '00000000-0000-0000-0000-000000000000']) {
        const r = await request(app.http).get(`/contacts/import/${bad}`).set(auth(owner)).expect(404);
        expect(r.body.error.code).toBe('NOT_FOUND');
      }
    });
  });

  describe('worker idempotency', () => {
    let apiOnly: TestApp;
    beforeAll(async () => {
      apiOnly = await startTestApp({ ROLE: 'api' });
    });
    afterAll(() => apiOnly?.close());

    it('leaves the job queued without workers; concurrent and repeated runs count every row once', async () => {
      const p = await createProject(apiOnly.http);
      const lines = ['email,n'];
      for (let i = 0; i < 12000; i++) lines.push(`w${i}@example.com,${i}`);
      lines.push('w1@example.com,dup', 'broken,1');
      const res = await request(apiOnly.http)
        .post('/contacts/import')
        .set(auth(p))
        .attach('file', Buffer.from(lines.join('\n')), 'c.csv')
        .expect(202);
      const get = () => request(apiOnly.http).get(`/contacts/import/${res.body.jobId}`).set(auth(p)).expect(200);
      expect((await get()).body).toMatchObject({ status: 'queued', processedRows: 0 });

      const runner = apiOnly.runtime.app.get(ImportRunner);
      const id = importJobIds.fromWire(res.body.jobId)!;
      await Promise.all([runner.run(p.id, id), runner.run(p.id, id)]);
      await runner.run(p.id, id);
      const job = (await get()).body as ImportJob;
      expect(job).toMatchObject({ status: 'completed', totalRows: 12002, processedRows: 12002, imported: 12000, updated: 1, skipped: 1 });
      expect(job.errors).toEqual([
        { row: 12002, email: 'w1@example.com', reason: 'duplicate_in_file' },
        { row: 12003, email: 'broken', reason: 'invalid_email' },
      ]);
      const total = await request(apiOnly.http).get('/contacts').set(auth(p)).expect(200);
      expect(total.body.total).toBe(12000);
    });

    it('marks a job whose file is gone as failed, with its reason', async () => {
      const p = await createProject(apiOnly.http);
      const res = await request(apiOnly.http).post('/contacts/import').set(auth(p)).attach('file', Buffer.from('email\na@example.com\n'), 'c.csv').expect(202);
      const id = importJobIds.fromWire(res.body.jobId)!;
      // Arranged in SQL: a job whose stored file is gone, which no endpoint produces.
      await apiOnly.runtime.app.get(DataSource).query(`UPDATE import_jobs SET file = NULL WHERE id = $1`, [id]);
      await apiOnly.runtime.app.get(ImportRunner).run(p.id, id);
      const job = await request(apiOnly.http).get(`/contacts/import/${res.body.jobId}`).set(auth(p)).expect(200);
      expect(job.body).toMatchObject({ status: 'failed', failureReason: expect.any(String), imported: 0 });
      expect(job.body.completedAt).toEqual(expect.any(String));
    });

    it('resumes after the last committed batch', async () => {
      const p = await createProject(apiOnly.http);
      const lines = ['email,n'];
      for (let i = 0; i < 8000; i++) lines.push(`r${i}@example.com,${i}`);
      lines.push('r5@example.com,again');
      const res = await request(apiOnly.http).post('/contacts/import').set(auth(p)).attach('file', Buffer.from(lines.join('\n')), 'c.csv').expect(202);
      const id = importJobIds.fromWire(res.body.jobId)!;
      const db = apiOnly.runtime.app.get(DataSource);
      // Simulate a crash after a first batch of 2,000 rows committed: rows 2..2001 written, cursor at 2001.
      // Fault staged in SQL: what a killed import leaves (its job mid-way, its first batch committed).
      await db.query(`UPDATE import_jobs SET status = 'processing', cursor_row = 2001, processed_rows = 2000, imported = 2000 WHERE id = $1`, [id]);
      await db.query(
        `INSERT INTO contacts (project_id, email, data) SELECT $1, 'r' || g || '@example.com', jsonb_build_object('n', g) FROM generate_series(0, 1999) g`,
        [p.id],
      );
      await apiOnly.runtime.app.get(ImportRunner).run(p.id, id);
      const job = (await request(apiOnly.http).get(`/contacts/import/${res.body.jobId}`).set(auth(p)).expect(200)).body as ImportJob;
      expect(job).toMatchObject({ status: 'completed', totalRows: 8001, processedRows: 8001, imported: 8000, updated: 1, skipped: 0 });
      expect(job.errors).toEqual([{ row: 8002, email: 'r5@example.com', reason: 'duplicate_in_file' }]);
    });
  });
});
