import request from 'supertest';
import { DataSource } from 'typeorm';
import { createProject, startTestApp, TestApp, TestProject, waitFor } from '../support/app';

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

describe('CSV import', () => {
  let app: TestApp;
  let project: TestProject;
  let other: TestProject;

  beforeAll(async () => {
    app = await startTestApp();
    project = await createProject(app.http);
    other = await createProject(app.http, 'Other project');
  });
  afterAll(() => app?.close());

  const auth = (p: TestProject = project) => ({ Authorization: `Bearer ${p.secretKey}` });

  function upload(content: string | Buffer, p: TestProject = project, filename = 'contacts.csv') {
    const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    return request(app.http).post('/contacts/import').set(auth(p)).attach('file', body, { filename, contentType: 'text/csv' });
  }

  async function finished(jobId: string, p: TestProject = project): Promise<ImportJob> {
    return waitFor(async () => {
      const res = await request(app.http).get(`/contacts/import/${jobId}`).set(auth(p)).expect(200);
      return res.body.status === 'completed' || res.body.status === 'failed' ? (res.body as ImportJob) : undefined;
    });
  }

  async function importCsv(content: string | Buffer, p: TestProject = project): Promise<ImportJob> {
    const res = await upload(content, p).expect(202);
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^imp_[0-9a-f]{32}$/), status: 'queued' });
    return finished(res.body.jobId, p);
  }

  async function contact(email: string, p: TestProject = project): Promise<{ id: string; email: string; subscribed: boolean; data: Record<string, unknown> } | undefined> {
    const rows = await app.runtime.app.get(DataSource).query(`SELECT id, email, subscribed, data FROM contacts WHERE project_id = $1 AND email = $2`, [p.id, email]);
    return rows[0];
  }

  it('imports rows with the typing rules and reports the job', async () => {
    const csv = [
      'email,First Name,age,score,vip,active,zip,phone,code,joined,seen,note',
      'ann@example.com,Ann,41,3.5,yes,FALSE,00501,+15550100,1e5,2024-05-01,2024-05-01T10:20:30+02:00,"Hello, world"',
    ].join('\n');
    const job = await importCsv(csv);
    expect(job).toMatchObject({ status: 'completed', totalRows: 1, processedRows: 1, imported: 1, updated: 0, skipped: 0, errors: [] });
    const ann = await contact('ann@example.com');
    expect(ann?.subscribed).toBe(true);
    expect(ann?.data).toEqual({
      'first name': 'Ann',
      age: 41,
      score: 3.5,
      vip: true,
      active: false,
      zip: '00501',
      phone: '+15550100',
      code: '1e5',
      joined: '2024-05-01',
      seen: '2024-05-01T08:20:30.000Z',
      note: 'Hello, world',
    });
  });
});
