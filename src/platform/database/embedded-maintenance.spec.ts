import { PGlite } from '@electric-sql/pglite';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { EmbeddedMaintenance, maintenanceOf } from './embedded-maintenance';
import { MERGE_GIN_PENDING_SQL } from './embedded-maintenance.sql';

const table = (over: Partial<Parameters<typeof maintenanceOf>[0]>) => ({ name: 't', tuples: 10_000, deadTuples: 0, modifiedSinceAnalyze: 0, insertedSinceVacuum: 0, ...over });

describe('maintenanceOf: autovacuum default thresholds', () => {
  it.each([
    ['untouched', {}, null],
    ['dead rows past 50 + 20%', { deadTuples: 2_051 }, 'vacuum'],
    ['dead rows at the threshold', { deadTuples: 2_050, modifiedSinceAnalyze: 2_050 }, 'analyze'],
    ['inserts past 1000 + 20%', { insertedSinceVacuum: 3_001 }, 'vacuum'],
    ['a new table (no tuples counted yet) with 1,001 inserts', { tuples: 0, insertedSinceVacuum: 1_001, modifiedSinceAnalyze: 1_001 }, 'vacuum'],
    ['changes past 50 + 10%', { modifiedSinceAnalyze: 1_051 }, 'analyze'],
    ['changes at the threshold', { modifiedSinceAnalyze: 1_050 }, null],
  ])('%s', (_label, over, work) => {
    expect(maintenanceOf(table(over))).toBe(work);
  });
});

describe('EmbeddedMaintenance on PGlite', () => {
  let db: PGlite;
  let maintenance: EmbeddedMaintenance;
  beforeAll(async () => {
    db = new PGlite();
    await db.exec(`CREATE TABLE c (id serial PRIMARY KEY, data jsonb NOT NULL);
      CREATE INDEX c_words ON c USING gin (jsonb_to_tsvector('simple'::regconfig, data, '["string"]'::jsonb));
      CREATE TABLE quiet (id int PRIMARY KEY); INSERT INTO quiet VALUES (1)`);
    const dataSource = { query: async (text: string) => (await db.query(text)).rows } as unknown as DataSource;
    maintenance = new EmbeddedMaintenance({ role: 'all', embeddedMaintenanceIntervalMs: 0 } as AppConfig, dataSource);
  });
  afterAll(() => db?.close());

  /** A session reports its activity at most once a second, at the next statement after it. */
  const reported = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await db.query('SELECT 1');
  };
  const stats = async () =>
    (await db.query<{ relname: string; vacuumed: boolean; analyzed: boolean }>(`SELECT relname, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables ORDER BY relname`)).rows;

  it('vacuums and analyzes a table past the thresholds, leaves a quiet one, and merges the GIN pending list', async () => {
    await db.exec(`INSERT INTO c (data) SELECT jsonb_build_object('plan', 'p' || g % 7) FROM generate_series(1, 5000) g`);
    await reported();
    await maintenance.runNow();
    expect(await stats()).toEqual([
      { relname: 'c', vacuumed: true, analyzed: true },
      { relname: 'quiet', vacuumed: false, analyzed: false },
    ]);
    // Fewer rows than fill the list (no overflow merge): only the round merges them.
    await db.exec(`INSERT INTO c (data) SELECT jsonb_build_object('plan', 'q' || g) FROM generate_series(1, 200) g`);
    await reported();
    await maintenance.runNow();
    expect((await db.query<{ pages: number }>(MERGE_GIN_PENDING_SQL)).rows[0]!.pages).toBe(0);
    // Without the round the list stays: the same inserts leave pages to merge.
    await db.exec(`INSERT INTO c (data) SELECT jsonb_build_object('plan', 'r' || g) FROM generate_series(1, 200) g`);
    expect((await db.query<{ pages: number }>(MERGE_GIN_PENDING_SQL)).rows[0]!.pages).toBeGreaterThan(0);
  });

  it('analyzes a table changed past 10% without vacuuming it', async () => {
    await db.exec(`UPDATE quiet SET id = 2; INSERT INTO quiet SELECT g FROM generate_series(3, 60) g`);
    await reported();
    await maintenance.runNow();
    const quiet = (await stats()).find((s) => s.relname === 'quiet');
    expect(quiet).toEqual({ relname: 'quiet', vacuumed: false, analyzed: true });
  });
});
