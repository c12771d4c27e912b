import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from '../../src/platform/database/data-source-options';
import { startEmbeddedPostgres } from '../../src/platform/database/embedded-postgres';
import { createServicesDatabase, TEST_MODE } from '../support/app';

/**
 * A white-box suite on purpose: the partitioning migration must keep every row of a populated
 * database of the previous schema, in this mode's database (PGlite or PostgreSQL), and what hung
 * on the tables (counters' triggers, the outbox's sequence, the foreign keys) must work after it.
 */
const MIGRATIONS = join(__dirname, '..', '..', 'migrations');
const PARTITIONING_NAME = 'PartitionedHistory1765500000000';

describe('history tables: partitioning a populated database', () => {
  let url: string;
  let stop: () => Promise<void>;
  let db: DataSource;

  const open = async (migrations: string[]) => {
    const ds = new DataSource({ ...dataSourceOptions(url, 2), migrations } as DataSourceOptions);
    await ds.initialize();
    return ds;
  };
  const fingerprint = async (table: 'events' | 'emails' | 'email_contents') => {
    const [row] = await db.query(`SELECT count(*)::int AS n, md5(string_agg(t::text, '|' ORDER BY t.id)) AS digest FROM ${table} t`);
    return row as { n: number; digest: string };
  };
  const counts = async () =>
    (await db.query(`SELECT name, sum(count)::int AS n FROM event_counts_hourly GROUP BY name ORDER BY name`)) as Array<{ name: string; n: number }>;

  beforeAll(async () => {
    if (TEST_MODE === 'services') {
      const created = await createServicesDatabase();
      url = created.url;
      stop = created.drop;
    } else {
      const pg = await startEmbeddedPostgres(undefined);
      url = pg.url;
      stop = () => pg.stop();
    }
    // The embedded template holds every migration of the build: both modes migrate to the newest
    // schema and step back to the one before the partitioning (its `down` is tested again below).
    db = await open([join(MIGRATIONS, '*.ts')]);
    await db.runMigrations({ transaction: 'each' });
    const timestampOf = (name: string) => Number(/(\d{13})$/.exec(name)![1]);
    const last = async () => ((await db.query(`SELECT name FROM typeorm_migrations ORDER BY timestamp DESC LIMIT 1`)) as Array<{ name: string }>)[0].name;
    while (timestampOf(await last()) >= timestampOf(PARTITIONING_NAME)) await db.undoLastMigration({ transaction: 'each' });
    // Three months of history, a campaign's emails and transactional ones, as the previous schema held them.
    await db.query(`
      INSERT INTO projects (id, name, secret_key_hash, public_key_hash, secret_prefix, public_prefix, webhook_secret)
      VALUES ('00000000-0000-4000-8000-000000000001', 'Old', 'h', 'h', 'sk', 'pk', 'w')`);
    await db.query(`
      INSERT INTO contacts (id, project_id, email, subscribed)
      SELECT 'c' || g, '00000000-0000-4000-8000-000000000001', 'p' || g || '@example.org', true FROM generate_series(1, 300) g`);
    await db.query(`
      INSERT INTO campaigns (id, project_id, name, subject, body, from_address, audience_type, status)
      VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000001', 'Old', 'S', 'B', 'a@example.org', 'ALL', 'SENT')`);
    await db.query(`
      INSERT INTO events (project_id, contact_id, name, data, created_at)
      SELECT '00000000-0000-4000-8000-000000000001', 'c' || (g % 300 + 1), CASE WHEN g % 3 = 0 THEN 'email.open' ELSE 'signup' END,
             jsonb_build_object('n', g), timestamptz '2026-08-15 00:00+00' + g * interval '20 minutes'
        FROM generate_series(1, 6000) g`);
    // The campaign's content (an audience's) and one content row per transactional email, written with it.
    await db.query(`
      INSERT INTO email_contents (id, project_id, subject, body, audience, created_at)
      SELECT ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, '00000000-0000-4000-8000-000000000001', 'S' || g, 'B' || g, g = 0,
             CASE WHEN g = 0 THEN timestamptz '2026-09-20 00:00+00' ELSE timestamptz '2026-09-20 00:00+00' + g * interval '4 hours' END
        FROM generate_series(0, 300) g WHERE g = 0 OR g > 200`);
    await db.query(`
      INSERT INTO emails (project_id, contact_id, campaign_id, content_id, type, from_address, to_address, status, created_at, sent_at)
      SELECT '00000000-0000-4000-8000-000000000001', 'c' || g, CASE WHEN g <= 200 THEN '00000000-0000-4000-8000-0000000000c1'::uuid END,
             ('00000000-0000-4000-8000-' || lpad((CASE WHEN g <= 200 THEN 0 ELSE g END)::text, 12, '0'))::uuid,
             'MARKETING', 'a@example.org', 'p' || g || '@example.org', 'sent', timestamptz '2026-09-20 00:00+00' + g * interval '4 hours', now()
        FROM generate_series(1, 300) g`);
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await stop?.();
  });

  it('keeps every row and every counter, and files each row under its month', async () => {
    const events = await fingerprint('events');
    const emails = await fingerprint('emails');
    const contents = await fingerprint('email_contents');
    const hourly = await counts();
    const [{ seq: lastSeq }] = await db.query(`SELECT max(seq)::bigint AS seq FROM events`);
    expect(events.n).toBe(6000);
    expect(emails.n).toBe(300);

    expect((await db.runMigrations({ transaction: 'each' })).map((m) => m.name)).toContain(PARTITIONING_NAME);

    expect(await fingerprint('events')).toEqual(events);
    expect(await fingerprint('emails')).toEqual(emails);
    expect(await fingerprint('email_contents')).toEqual(contents);
    expect(contents.n).toBe(101);
    expect(await counts()).toEqual(hourly);
    // August to three months past now, and nothing in the default partition.
    const [{ partitioned }] = await db.query(
      `SELECT count(*)::int AS partitioned FROM pg_partitioned_table WHERE partrelid IN ('events'::regclass, 'emails'::regclass, 'email_contents'::regclass)`,
    );
    expect(partitioned).toBe(3);
    // A send request's content row is of its emails' month (written together): each transactional email finds its content in its own month.
    const [{ apart }] = await db.query(`
      SELECT count(*)::int AS apart FROM emails e JOIN email_contents c ON c.id = e.content_id
       WHERE e.campaign_id IS NULL AND c.tableoid::regclass::text <> 'email_contents_p' || to_char(e.created_at AT TIME ZONE 'UTC', 'YYYYMM')`);
    expect(apart).toBe(0);
    // The email keeps its content reference without a foreign key (a partitioned table is referenced by its whole key).
    const [{ fks }] = await db.query(`SELECT count(*)::int AS fks FROM pg_constraint WHERE confrelid = 'email_contents'::regclass`);
    expect(fks).toBe(0);
    const misfiled = await db.query(`
      SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM events
       WHERE tableoid::regclass::text <> 'events_p' || to_char(created_at AT TIME ZONE 'UTC', 'YYYYMM') GROUP BY 1`);
    expect(misfiled).toEqual([]);
    const parts: Array<{ part: string }> = await db.query(`SELECT DISTINCT tableoid::regclass::text AS part FROM events ORDER BY 1`);
    expect(parts.map((p) => p.part)).toEqual(['events_p202608', 'events_p202609', 'events_p202610', 'events_p202611']);
    // A query that names a time range reads only its months' partitions.
    const plan: Array<{ 'QUERY PLAN': string }> = await db.query(
      `EXPLAIN SELECT count(*) FROM events WHERE created_at >= '2026-09-01 00:00+00' AND created_at < '2026-10-01 00:00+00'`,
    );
    const scanned = [...new Set(plan.map((line) => /\bon (events_\w+)/.exec(line['QUERY PLAN'])?.[1]).filter(Boolean))];
    expect(scanned).toEqual(['events_p202609']);
    // The outbox's sequence goes on after the copied rows; new rows count, and get time-ordered ids.
    const [added] = await db.query(
      `INSERT INTO events (project_id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'signup') RETURNING id, seq::bigint AS seq`,
    );
    expect(BigInt(added.seq)).toBeGreaterThan(BigInt(lastSeq));
    expect(added.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const after = await counts();
    expect(after.find((c) => c.name === 'signup')!.n).toBe(hourly.find((c) => c.name === 'signup')!.n + 1);
  });

  it('holds each contact once per campaign, keeps the foreign keys, and moves a stray row into its month when the month is made', async () => {
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = '00000000-0000-4000-8000-0000000000c1'`);
    expect(n).toBe(200);
    await expect(db.query(`INSERT INTO campaign_contacts (campaign_id, contact_id) VALUES ('00000000-0000-4000-8000-0000000000c1', 'c1')`)).rejects.toThrow(
      /campaign_contacts_pkey/,
    );
    await expect(
      db.query(`INSERT INTO events (project_id, name) VALUES ('00000000-0000-4000-8000-0000000000ff', 'signup')`),
    ).rejects.toThrow(/events_project_id_fkey/);
    // A contact's delete still takes its events and unlinks its emails, in every partition.
    await db.query(`DELETE FROM contacts WHERE id = 'c3'`);
    const [{ left }] = await db.query(`SELECT count(*)::int AS left FROM events WHERE contact_id = 'c3'`);
    expect(left).toBe(0);
    const [{ linked }] = await db.query(`SELECT count(*)::int AS linked FROM emails WHERE contact_id = 'c3'`);
    expect(linked).toBe(0);
    // A row of a month nobody made yet waits in the default partition, and moves when its month is made.
    await db.query(`INSERT INTO events (project_id, name, created_at) VALUES ('00000000-0000-4000-8000-000000000001', 'late', '2031-05-02 10:00+00')`);
    const [{ part }] = await db.query(`SELECT tableoid::regclass::text AS part FROM events WHERE name = 'late'`);
    expect(part).toBe('events_default');
    const [{ made }] = await db.query(`SELECT history_partition_ensure('events', '2031-05-01') AS made`);
    expect(made).toBe(true);
    const [{ part: moved }] = await db.query(`SELECT tableoid::regclass::text AS part FROM events WHERE name = 'late'`);
    expect(moved).toBe('events_p203105');
    const [{ again }] = await db.query(`SELECT history_partition_ensure('events', '2031-05-01') AS again`);
    expect(again).toBe(false);
  });

  it('reverts to plain tables with every row', async () => {
    const events = await fingerprint('events');
    const emails = await fingerprint('emails');
    const contents = await fingerprint('email_contents');
    await db.undoLastMigration({ transaction: 'each' });
    expect(await fingerprint('events')).toEqual(events);
    expect(await fingerprint('emails')).toEqual(emails);
    expect(await fingerprint('email_contents')).toEqual(contents);
    const [{ fks }] = await db.query(`SELECT count(*)::int AS fks FROM pg_constraint WHERE confrelid = 'email_contents'::regclass AND conname = 'emails_content_id_fkey'`);
    expect(fks).toBe(1);
    const [{ partitioned }] = await db.query(`SELECT count(*)::int AS partitioned FROM pg_partitioned_table`);
    expect(partitioned).toBe(0);
  });
});
