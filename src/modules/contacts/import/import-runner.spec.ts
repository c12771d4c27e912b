import { IMPORT_BATCH_ROWS, ImportRunner } from './import-runner';
import { DatabaseTraits } from '../../../platform/database/database-traits';

const POSTGRES = new DatabaseTraits({ concurrentTransactions: true });
const EMBEDDED = new DatabaseTraits({ concurrentTransactions: false });

/**
 * The runner's batch pipeline against a fake database that logs each statement by batch: the
 * e2e suite proves the rows and counters on a real one; this proves the order (which a real
 * database only shows by timing).
 */
interface FakeJob {
  status: string;
  cursor: number;
  file: Buffer;
}

function csv(rows: string[]): Buffer {
  return Buffer.from(['email,n', ...rows].join('\n'));
}

/** Rows of `n` distinct addresses (`prefix0@x.test` …), one per line. */
function rows(n: number, prefix = 'r'): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${i}@x.test,${i}`);
}

function fakeDatabase(job: FakeJob, opts: { failUpsertOfBatch?: number } = {}) {
  const log: string[] = [];
  let batches = 0;
  /** Resolvers of upserts held open, by batch: the test decides when a batch's contacts are written. */
  const held = new Map<number, () => void>();
  let holdUpserts = false;
  /** The job's row, as ImportJobsRepository reads and moves it. */
  const jobs = {
    forRun: jest.fn(async () => ({ status: job.status, file: job.file, column_mapping: null, cursor_row: job.cursor })),
    start: jest.fn(async () => {
      job.status = 'processing';
    }),
    complete: jest.fn(async () => {
      log.push('completed');
    }),
    fail: jest.fn(async (_projectId: string, _id: string, reason: string) => {
      log.push(`failed: ${reason}`);
    }),
  };
  const dataSource = {
    transaction: jest.fn(async (work: (manager: unknown) => Promise<unknown>) => {
      const n = ++batches;
      let cursorAfter: number | undefined;
      const manager = {
        query: jest.fn(async (sql: string, params: unknown[]) => {
          if (sql.includes('INSERT INTO contacts')) {
            const emails = (JSON.parse(params[1] as string) as Array<{ email: string }>).map((r) => r.email);
            log.push(`batch ${n} upsert ${emails[0]}..${emails.at(-1)}`);
            if (opts.failUpsertOfBatch === n) throw new Error(`upsert ${n} failed`);
            if (holdUpserts) await new Promise<void>((resolve) => held.set(n, resolve));
            log.push(`batch ${n} upserted`);
            return [{ inserted: emails.length }];
          }
          if (sql.includes('FOR UPDATE')) return job.status === 'processing' ? [{ cursor_row: job.cursor }] : [];
          if (sql.startsWith('UPDATE import_jobs')) cursorAfter = params[1] as number;
          return [];
        }),
      };
      let result: unknown;
      try {
        result = await work(manager);
      } catch (err) {
        log.push(`batch ${n} rolled back`);
        throw err;
      }
      if (cursorAfter !== undefined) {
        job.cursor = cursorAfter;
        log.push(`batch ${n} committed at ${cursorAfter}`);
      }
      return result;
    }),
  };
  return {
    dataSource,
    jobs,
    log,
    hold: () => (holdUpserts = true),
    release: (n: number) => held.get(n)?.(),
    isHeld: (n: number) => held.has(n),
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setImmediate(r));
  if (!check()) throw new Error('condition never met');
}

describe('ImportRunner batch pipeline', () => {
  it('writes the next batch’s contacts while the one before commits, and commits in file order', async () => {
    const job: FakeJob = { status: 'queued', cursor: 1, file: csv(rows(IMPORT_BATCH_ROWS * 2 + 10)) };
    const db = fakeDatabase(job);
    db.hold();
    const done = new ImportRunner(db.dataSource as never, db.jobs as never, POSTGRES).run('p', 'j');
    await until(() => db.isHeld(1) && db.isHeld(2));
    // Both batches are writing their contacts; neither has committed.
    expect(db.log).toEqual(['batch 1 upsert r0@x.test..r4999@x.test', 'batch 2 upsert r5000@x.test..r9999@x.test']);
    db.release(2);
    await until(() => db.log.includes('batch 2 upserted'));
    await new Promise((r) => setImmediate(r));
    expect(db.log.some((l) => l.includes('committed'))).toBe(false);
    db.release(1);
    await until(() => db.isHeld(3));
    db.release(3);
    await done;
    const commits = db.log.filter((l) => l.includes('committed') || l === 'completed');
    expect(commits).toEqual([
      `batch 1 committed at ${IMPORT_BATCH_ROWS + 1}`,
      `batch 2 committed at ${IMPORT_BATCH_ROWS * 2 + 1}`,
      `batch 3 committed at ${IMPORT_BATCH_ROWS * 2 + 11}`,
      'completed',
    ]);
  });

  it('starts a batch that repeats an email of the batch before only after that one committed (later cells win)', async () => {
    const job: FakeJob = { status: 'queued', cursor: 1, file: csv([...rows(IMPORT_BATCH_ROWS), 'r7@x.test,again', ...rows(5, 's')]) };
    const db = fakeDatabase(job);
    db.hold();
    const done = new ImportRunner(db.dataSource as never, db.jobs as never, POSTGRES).run('p', 'j');
    await until(() => db.isHeld(1));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(db.isHeld(2)).toBe(false);
    db.release(1);
    await until(() => db.isHeld(2));
    db.release(2);
    await done;
    expect(db.log.indexOf(`batch 1 committed at ${IMPORT_BATCH_ROWS + 1}`)).toBeLessThan(db.log.indexOf('batch 2 upsert r7@x.test..s4@x.test'));
  });

  it('commits nothing after a batch that failed, and lets the batch beside it end before the attempt fails', async () => {
    const job: FakeJob = { status: 'queued', cursor: 1, file: csv(rows(IMPORT_BATCH_ROWS * 3)) };
    const db = fakeDatabase(job, { failUpsertOfBatch: 1 });
    await expect(new ImportRunner(db.dataSource as never, db.jobs as never, POSTGRES).run('p', 'j')).rejects.toThrow('upsert 1 failed');
    expect(db.log.filter((l) => l.includes('committed'))).toEqual([]);
    // Batch 2 ran beside batch 1 and rolled back; batch 3 never started.
    expect(db.log).toEqual([
      'batch 1 upsert r0@x.test..r4999@x.test',
      'batch 1 rolled back',
      'batch 2 upsert r5000@x.test..r9999@x.test',
      'batch 2 upserted',
      'batch 2 rolled back',
    ]);
    expect(job.cursor).toBe(1);
  });

  it('stops quietly when another runner moved the job on, committing nothing', async () => {
    const job: FakeJob = { status: 'queued', cursor: 1, file: csv(rows(IMPORT_BATCH_ROWS * 2)) };
    const db = fakeDatabase(job);
    const runner = new ImportRunner(db.dataSource as never, db.jobs as never, POSTGRES);
    const original = db.dataSource.transaction.getMockImplementation()!;
    // Another runner committed the first batch while this one wrote it.
    db.dataSource.transaction.mockImplementationOnce(async (work) => {
      job.cursor = IMPORT_BATCH_ROWS + 1;
      return original(work);
    });
    await runner.run('p', 'j');
    expect(db.log.filter((l) => l.includes('committed') || l === 'completed')).toEqual([]);
    // The contacts it wrote roll back with the batch: the other runner wrote them (and maybe later cells).
    expect(db.log).toContain('batch 1 rolled back');
  });

  /**
   * The embedded database as its socket server behaves: one transaction open at a time, every
   * other connection held until it ends. The first batch's transaction begins late (its pooled
   * connection is still being opened), so the second batch's begins first.
   */
  function serialisingDatabase(db: ReturnType<typeof fakeDatabase>) {
    let open: Promise<void> | null = null;
    let calls = 0;
    const original = db.dataSource.transaction.getMockImplementation()!;
    db.dataSource.transaction.mockImplementation(async (work) => {
      if (++calls === 1) for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      while (open) await open;
      let end!: () => void;
      open = new Promise<void>((resolve) => (end = resolve));
      try {
        return await original(work);
      } finally {
        open = null;
        end();
      }
    });
  }

  /** Whether `promise` settles within `until`'s turns of the event loop. */
  async function settles(promise: Promise<unknown>): Promise<boolean> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    return until(() => settled).then(
      () => true,
      () => false,
    );
  }

  /** A three-batch import run by a runner told `traits`, on the serialising database. */
  function importOnSerialisingDatabase(traits: DatabaseTraits) {
    const db = fakeDatabase({ status: 'queued', cursor: 1, file: csv(rows(IMPORT_BATCH_ROWS * 3)) });
    serialisingDatabase(db);
    return { db, done: new ImportRunner(db.dataSource as never, db.jobs as never, traits).run('p', 'j') };
  }

  it('on the embedded database writes one batch at a time, so a batch never waits for one held behind it', async () => {
    const { db, done } = importOnSerialisingDatabase(EMBEDDED);
    expect(await settles(done)).toBe(true);
    await done;
    expect(db.log.filter((l) => l.includes('committed') || l === 'completed')).toEqual([
      `batch 1 committed at ${IMPORT_BATCH_ROWS + 1}`,
      `batch 2 committed at ${IMPORT_BATCH_ROWS * 2 + 1}`,
      `batch 3 committed at ${IMPORT_BATCH_ROWS * 3 + 1}`,
      'completed',
    ]);
  });

  it('(the hazard the embedded rule avoids: two batches in flight on that database never finish)', async () => {
    const { db, done } = importOnSerialisingDatabase(POSTGRES);
    expect(await settles(done)).toBe(false);
    // The second batch's rows got the session first, wrote their contacts, and wait for the first
    // batch's commit, which waits for the session.
    expect(db.log).toEqual([expect.stringMatching(/upsert r5000@x\.test\.\.r9999@x\.test$/), expect.stringMatching(/upserted$/)]);
  });
});
