import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `events` and `emails` become partitioned by month of `created_at` (docs/history-tables.md), so
 * years of history are dropped a month at a time instead of deleted row by row, and a query that
 * names a time range reads only its months. The same statements run in PostgreSQL and PGlite.
 *
 * - Each table is rebuilt: renamed aside, a partitioned table of the same columns, defaults and
 *   checks created in its place, its rows copied, and then its indexes, foreign keys and triggers
 *   recreated from the catalogue's own definitions (so none is forgotten) after the copy (faster
 *   than maintaining them row by row, and the triggers must not count the copied rows again).
 * - A partitioned table's unique keys must include `created_at`: the primary keys become
 *   `(id, created_at)`; `events.seq` keeps a plain index (its sequence makes it unique);
 *   "each contact at most once per campaign" moves to its own small table, `campaign_contacts`,
 *   which the audience insert writes first in the same statement (one unique probe, as before).
 * - Months are created by `history_partition_ensure(table, month)`, the one definition the
 *   partition worker calls too (three months ahead). A row of a month nobody created yet lands
 *   in `<table>_default`; creating that month later moves it into the month's partition.
 * - New ids are UUIDv7 (`uuidv7()`: the creation millisecond first), so an id tells its month.
 * - `email_contents` (the sources one send request's emails share) is partitioned the same way, so
 *   its months go with the emails' months: a request's content row is written in the statement
 *   that writes its emails, so both have the same `created_at`. `emails.content_id` keeps its
 *   index but no foreign key (a partitioned table is referenced by its whole primary key, and the
 *   content's creation time is not on the email); content rows are deleted only when no email
 *   references them, or with their month (docs/history-tables.md).
 */
export class PartitionedHistory1765500000000 implements MigrationInterface {
  name = 'PartitionedHistory1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION uuidv7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
        SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                 PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
               52, 1), 53, 1), 'hex')::uuid
      $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION history_partition_ensure(parent text, month_start date) RETURNS boolean LANGUAGE plpgsql AS $$
      DECLARE
        lo timestamptz := date_trunc('month', month_start)::timestamp AT TIME ZONE 'UTC';
        hi timestamptz := (date_trunc('month', month_start) + interval '1 month')::timestamp AT TIME ZONE 'UTC';
        part text := parent || '_p' || to_char(month_start, 'YYYYMM');
      BEGIN
        -- Two processes making the same month: the second waits, then finds it made.
        PERFORM pg_advisory_xact_lock(hashtext('history_partition_ensure'), hashtext(part));
        IF to_regclass(part) IS NOT NULL THEN
          RETURN false;
        END IF;
        -- Created apart and attached: ATTACH takes a lock that lets writes of the table go on, where
        -- CREATE TABLE … PARTITION OF would hold every insert for its duration.
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, parent);
        IF to_regclass(parent || '_default') IS NOT NULL THEN
          EXECUTE format('WITH moved AS (DELETE FROM %I WHERE created_at >= $1 AND created_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
                         parent || '_default', part) USING lo, hi;
        END IF;
        EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, lo, hi);
        RETURN true;
      END $$`);
    await q.query(`
      CREATE TABLE campaign_contacts (
        campaign_id uuid NOT NULL,
        contact_id text NOT NULL,
        CONSTRAINT campaign_contacts_pkey PRIMARY KEY (campaign_id, contact_id),
        CONSTRAINT campaign_contacts_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES campaigns(id) ON DELETE CASCADE
      )`);
    await q.query(`
      INSERT INTO campaign_contacts (campaign_id, contact_id)
      SELECT DISTINCT e.campaign_id, e.contact_id FROM emails e JOIN campaigns c ON c.id = e.campaign_id
       WHERE e.campaign_id IS NOT NULL AND e.contact_id IS NOT NULL`);
    await partitionByMonth(q, 'events', { plain: { events_seq_key: 'events_seq_idx' } });
    await q.query(`ALTER TABLE emails DROP CONSTRAINT emails_content_id_fkey`);
    await partitionByMonth(q, 'email_contents', { plain: {} });
    await partitionByMonth(q, 'emails', { plain: { emails_campaign_contact_key: 'emails_campaign_contact_idx' } });
  }

  async down(q: QueryRunner): Promise<void> {
    await unpartition(q, 'emails', { unique: { emails_campaign_contact_idx: 'emails_campaign_contact_key' } });
    await unpartition(q, 'email_contents', { unique: {} });
    // An email whose content row went with its month held a dangling reference: cleared, as content expiry clears it.
    await q.query(`UPDATE emails e SET content_id = NULL WHERE content_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM email_contents c WHERE c.id = e.content_id)`);
    await q.query(`ALTER TABLE emails ADD CONSTRAINT emails_content_id_fkey FOREIGN KEY (content_id) REFERENCES email_contents(id) ON DELETE CASCADE`);
    await unpartition(q, 'events', { unique: { events_seq_idx: 'events_seq_key' } });
    await q.query(`DROP TABLE IF EXISTS campaign_contacts`);
    await q.query(`DROP FUNCTION IF EXISTS history_partition_ensure(text, date)`);
    // uuidv7() stays: PostgreSQL 18 has its own, which a DROP must not try to remove.
  }
}

interface TableShape {
  indexes: Array<{ name: string; def: string }>;
  foreignKeys: Array<{ name: string; def: string }>;
  triggers: string[];
  sequences: Array<{ sequence: string; column: string }>;
}

/** What the rebuild must recreate, from the catalogue: indexes (but the primary key's), foreign keys, user triggers, owned sequences. */
async function shapeOf(q: QueryRunner, table: string): Promise<TableShape> {
  const indexes: Array<{ name: string; def: string }> = await q.query(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::regclass AND NOT x.indisprimary ORDER BY i.relname`,
    [table],
  );
  const foreignKeys: Array<{ name: string; def: string }> = await q.query(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f' ORDER BY conname`,
    [table],
  );
  const triggers: Array<{ def: string }> = await q.query(
    `SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal ORDER BY tgname`,
    [table],
  );
  const sequences: Array<{ sequence: string; column: string }> = await q.query(
    `SELECT s.relname AS sequence, a.attname AS column
       FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
       JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
      WHERE d.refobjid = $1::regclass AND d.deptype = 'a'`,
    [table],
  );
  return { indexes, foreignKeys, triggers: triggers.map((t) => t.def), sequences };
}

/**
 * Moves `table`'s rows into a new table of the same name built by `create`, and recreates what
 * hung on the old one. `rename` maps an index to its new name and whether it becomes unique.
 */
async function rebuild(
  q: QueryRunner,
  table: string,
  create: (aside: string) => Promise<void>,
  primaryKey: string,
  rename: Record<string, { name: string; unique: boolean }>,
): Promise<void> {
  const shape = await shapeOf(q, table);
  const aside = `${table}_unpartitioned`;
  await q.query(`ALTER TABLE ${table} RENAME TO ${aside}`);
  for (const index of shape.indexes) await q.query(`DROP INDEX ${index.name}`);
  for (const trigger of shape.triggers) await q.query(`DROP TRIGGER ${/^CREATE (?:CONSTRAINT )?TRIGGER (\S+)/.exec(trigger)![1]} ON ${aside}`);
  await q.query(`ALTER TABLE ${aside} RENAME CONSTRAINT ${table}_pkey TO ${aside}_pkey`);
  await create(aside);
  await q.query(`INSERT INTO ${table} SELECT * FROM ${aside}`);
  await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${primaryKey})`);
  for (const s of shape.sequences) await q.query(`ALTER SEQUENCE ${s.sequence} OWNED BY NONE`);
  await q.query(`DROP TABLE ${aside}`);
  for (const s of shape.sequences) await q.query(`ALTER SEQUENCE ${s.sequence} OWNED BY ${table}.${s.column}`);
  for (const index of shape.indexes) {
    const change = rename[index.name];
    // A partitioned table's own index reads `ON ONLY <table>`; the plain table's has no ONLY.
    let def = index.def.replace(/ ON ONLY /, ' ON ');
    if (change) {
      def = def.replace(/^CREATE (UNIQUE )?INDEX \S+/, `CREATE ${change.unique ? 'UNIQUE ' : ''}INDEX ${change.name}`);
    }
    await q.query(def);
  }
  for (const fk of shape.foreignKeys) await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${fk.name} ${fk.def}`);
  for (const trigger of shape.triggers) await q.query(trigger);
}

async function partitionByMonth(q: QueryRunner, table: string, opts: { plain: Record<string, string> }): Promise<void> {
  const rename = Object.fromEntries(Object.entries(opts.plain).map(([from, to]) => [from, { name: to, unique: false }]));
  await rebuild(
    q,
    table,
    async (aside) => {
      await q.query(`CREATE TABLE ${table} (LIKE ${aside} INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (created_at)`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN id SET DEFAULT uuidv7()`);
      await q.query(`CREATE TABLE ${table}_default PARTITION OF ${table} DEFAULT`);
      // Every month from the oldest row's to three ahead of now (UTC months).
      await q.query(
        `SELECT history_partition_ensure($1, m::date)
           FROM generate_series(date_trunc('month', coalesce((SELECT min(created_at) FROM ${aside}), now()) AT TIME ZONE 'UTC'),
                                date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months', interval '1 month') AS m`,
        [table],
      );
    },
    'id, created_at',
    rename,
  );
}

async function unpartition(q: QueryRunner, table: string, opts: { unique: Record<string, string> }): Promise<void> {
  const rename = Object.fromEntries(Object.entries(opts.unique).map(([from, to]) => [from, { name: to, unique: true }]));
  await rebuild(
    q,
    table,
    async (aside) => {
      await q.query(`CREATE TABLE ${table} (LIKE ${aside} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN id SET DEFAULT gen_random_uuid()`);
    },
    'id',
    rename,
  );
  // The partitions went with the partitioned table; their months' function stays until the caller drops it.
}
