import { PGlite } from '@electric-sql/pglite';
import type { DataSource } from 'typeorm';
import { HistoryPartitions } from '../../platform/database/history-partitions';
import { EmailRetentionRepository } from './email-retention.repository';

/** The content pruner's two statements on a small copy of the two tables. */
let db: PGlite;
let repo: EmailRetentionRepository;
const P = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const id = (n: number) => `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const day = (n: number) => new Date(Date.UTC(2026, 0, n));

beforeAll(async () => {
  db = new PGlite();
  await db.waitReady;
  await db.exec(`
    CREATE TABLE email_contents (id uuid PRIMARY KEY, project_id uuid, audience boolean NOT NULL DEFAULT false);
    CREATE TABLE emails (id uuid PRIMARY KEY, project_id uuid, content_id uuid REFERENCES email_contents(id) ON DELETE CASCADE, variables jsonb,
                         status text NOT NULL, subject text, created_at timestamptz NOT NULL);`);
  // TypeORM answers UPDATE/DELETE with [rows, count]; SELECT (and WITH … SELECT) with the rows.
  const query = async (text: string, params: unknown[]) => {
    const result = await db.query(text, params);
    return /^\s*(UPDATE|DELETE)/i.test(text) ? [result.rows, result.affectedRows ?? 0] : result.rows;
  };
  const dataSource = { query, manager: { query }, transaction: (work: (em: { query: typeof query }) => unknown) => work({ query }) } as unknown as DataSource;
  repo = new EmailRetentionRepository(dataSource, new HistoryPartitions(dataSource));
});
afterAll(() => db?.close());

beforeEach(async () => {
  await db.exec(`DELETE FROM emails; DELETE FROM email_contents;`);
  // c1: a send request's content shared by e1 (old) and e2 (new); c2: old request's alone (e3);
  // c3: a campaign's (audience) content of old e4; e5 old but still queued; e6 another project's.
  await db.query(`INSERT INTO email_contents (id, project_id, audience) VALUES ($1, $4, false), ($2, $4, false), ($3, $4, true), ($5, $6, false)`, [id(101), id(102), id(103), P, id(104), OTHER]);
  const rows: Array<[number, string, number, string, Date]> = [
    [1, P, 101, 'sent', day(1)],
    [2, P, 101, 'delivered', day(20)],
    [3, P, 102, 'bounced', day(2)],
    [4, P, 103, 'delivered', day(3)],
    [5, P, 102, 'queued', day(4)],
    [6, OTHER, 104, 'sent', day(1)],
  ];
  for (const [n, project, content, status, at] of rows) {
    await db.query(`INSERT INTO emails (id, project_id, content_id, variables, status, subject, created_at) VALUES ($1, $2, $3, '{"a":1}', $4, 'Hi', $5)`, [id(n), project, id(content), status, at]);
  }
});

const state = async () =>
  Object.fromEntries((await db.query<{ id: string; content_id: string | null; variables: unknown; subject: string }>(`SELECT id, content_id, variables, subject FROM emails ORDER BY id`)).rows.map((r) => [r.id, r]));
const contents = async () => (await db.query<{ id: string }>(`SELECT id FROM email_contents ORDER BY id`)).rows.map((r) => r.id);

describe('EmailRetentionRepository', () => {
  it("clears the content of the project's finished emails before the cutoff, oldest first, at most `limit`", async () => {
    const first = await repo.clearContent(P, { from: null, before: day(10) }, 2);
    expect(first.cleared).toBe(2);
    expect(first.contentIds.sort()).toEqual([id(101), id(102)]);
    const s = await state();
    expect(s[id(1)]).toMatchObject({ content_id: null, variables: null, subject: 'Hi' });
    expect(s[id(3)]).toMatchObject({ content_id: null, variables: null });
    expect(s[id(4)].content_id).toBe(id(103));
    const second = await repo.clearContent(P, { from: null, before: day(10) }, 2);
    expect(second).toEqual({ cleared: 1, contentIds: [id(103)], lastAt: day(3) });
    expect(first.lastAt).toEqual(day(2));
    // The queued email, the newer one and the other project's keep theirs.
    const after = await state();
    expect([after[id(5)].content_id, after[id(2)].content_id, after[id(6)].content_id]).toEqual([id(102), id(101), id(104)]);
    expect((await repo.clearContent(P, { from: null, before: day(10) }, 2)).cleared).toBe(0);
  });

  it('stays within the range it is given', async () => {
    expect((await repo.clearContent(P, { from: day(2), before: day(10) }, 10)).cleared).toBe(2);
    expect((await state())[id(1)].content_id).toBe(id(101));
  });

  it('deletes only content rows no email references and no audience holds, of the project', async () => {
    await repo.clearContent(P, { from: null, before: day(10) }, 10);
    // c1 is still e2's, c2 still the queued e5's, c3 the campaign's; c4 is another project's.
    expect(await repo.deleteUnreferencedContents(P, [id(101), id(102), id(103), id(104)])).toBe(0);
    await db.query(`UPDATE emails SET status = 'sent' WHERE id = $1`, [id(5)]);
    await repo.clearContent(P, { from: null, before: day(10) }, 10);
    expect(await repo.deleteUnreferencedContents(P, [id(102), id(103), id(104)])).toBe(1);
    expect(await contents()).toEqual([id(101), id(103), id(104)]);
  });

  it("deletes the project's finished emails before the cutoff (emailsDays), oldest first, a batch at a time, and the content rows only they used", async () => {
    // e1 and e3 go first (the oldest); c2 stays while the queued e5 holds it, c1 while e2 (not past the cutoff) does.
    expect(await repo.deleteEmails(P, { from: null, before: day(10) }, 2)).toBe(2);
    expect(Object.keys(await state()).sort()).toEqual([id(2), id(4), id(5), id(6)]);
    // e4 next (the campaign's content stays with its audience); the queued e5 is never deleted.
    expect(await repo.deleteEmails(P, { from: null, before: day(10) }, 2)).toBe(1);
    expect(await repo.deleteEmails(P, { from: null, before: day(10) }, 2)).toBe(0);
    expect(Object.keys(await state()).sort()).toEqual([id(2), id(5), id(6)]);
    expect(await contents()).toEqual([id(101), id(102), id(103), id(104)]);
    await db.query(`UPDATE emails SET status = 'sent' WHERE id = $1`, [id(5)]);
    expect(await repo.deleteEmails(P, { from: null, before: day(10) }, 2)).toBe(1);
    expect(await contents()).toEqual([id(101), id(103), id(104)]);
  });
});

describe('EmailRetentionRepository: content months', () => {
  const month = (table: string, ym: string) => {
    const [y, m] = [Number(ym.slice(0, 4)), Number(ym.slice(4)) - 1];
    return { name: `${table}_p${ym}`, from: new Date(Date.UTC(y, m, 1)), to: new Date(Date.UTC(y, m + 1, 1)) };
  };
  function withMonths(emails: string[], contents: string[], busy: string[] = []) {
    const queries: unknown[][] = [];
    const dropped: string[] = [];
    const dataSource = { query: jest.fn(async (...args: unknown[]) => queries.push(args)) } as unknown as DataSource;
    const partitions = {
      detached: jest.fn(async () => ['email_contents_p202510']),
      months: jest.fn(async (table: string) => (table === 'emails' ? emails : contents).map((ym) => month(table, ym))),
      drop: jest.fn(async (_table: string, name: string) => {
        if (busy.includes(name)) return false;
        dropped.push(name);
        return true;
      }),
    } as unknown as HistoryPartitions;
    return { repo: new EmailRetentionRepository(dataSource, partitions), queries, dropped };
  }

  it('drops the content months older than every month of emails kept, moving the audiences\' rows out of each first, and a detached leftover', async () => {
    const { repo, queries, dropped } = withMonths(['202603', '202604'], ['202601', '202602', '202603', '202604']);
    expect(await repo.dropContentMonths()).toEqual(['email_contents_p202601', 'email_contents_p202602']);
    expect(dropped).toEqual(['email_contents_p202510', 'email_contents_p202601', 'email_contents_p202602']);
    expect(queries.map(([, params]) => params)).toEqual([
      [new Date('2026-01-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z')],
      [new Date('2026-02-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z')],
    ]);
    expect(String(queries[0][0])).toMatch(/UPDATE email_contents SET created_at = now\(\) WHERE audience/);
  });

  it('stops at a month whose lock was busy (the next round goes on) and drops nothing while a month of emails is the oldest', async () => {
    const busy = withMonths(['202603'], ['202601', '202602'], ['email_contents_p202601']);
    expect(await busy.repo.dropContentMonths()).toEqual([]);
    const kept = withMonths(['202601'], ['202601', '202602']);
    expect(await kept.repo.dropContentMonths()).toEqual([]);
    expect(kept.queries).toEqual([]);
  });
});
