import { MigrationInterface, QueryRunner } from 'typeorm';

export class ActivityRollup1763709100000 implements MigrationInterface {
  name = 'ActivityRollup1763709100000';

  async up(q: QueryRunner): Promise<void> {
    // Events counted per project, UTC hour and name: analytics and activity stats read these few
    // rows instead of the events table. Kept exact by statement-level triggers on events (one
    // grouped upsert per inserting statement, in its transaction; deletes subtract), so the
    // counters commit or roll back with the events themselves.
    await q.query(`
      CREATE TABLE event_counts_hourly (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        hour timestamptz NOT NULL,
        name text NOT NULL,
        count bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, hour, name)
      )`);
    await q.query(`
      INSERT INTO event_counts_hourly (project_id, hour, name, count)
      SELECT project_id, date_trunc('hour', created_at, 'UTC'), name, count(*) FROM events GROUP BY 1, 2, 3`);
    // Rows are upserted in key order so concurrent inserting transactions lock them in the same order.
    await q.query(`
      CREATE FUNCTION event_counts_hourly_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event_counts_hourly AS h (project_id, hour, name, count)
        SELECT project_id, date_trunc('hour', created_at, 'UTC'), name, count(*) FROM added_events
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (project_id, hour, name) DO UPDATE SET count = h.count + EXCLUDED.count;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION event_counts_hourly_subtract() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE event_counts_hourly h SET count = h.count - d.n
        FROM (SELECT project_id, date_trunc('hour', created_at, 'UTC') AS hour, name, count(*) AS n FROM removed_events GROUP BY 1, 2, 3) d
        WHERE h.project_id = d.project_id AND h.hour = d.hour AND h.name = d.name;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER events_counts_insert AFTER INSERT ON events
      REFERENCING NEW TABLE AS added_events FOR EACH STATEMENT EXECUTE FUNCTION event_counts_hourly_add()`);
    await q.query(`
      CREATE TRIGGER events_counts_delete AFTER DELETE ON events
      REFERENCING OLD TABLE AS removed_events FOR EACH STATEMENT EXECUTE FUNCTION event_counts_hourly_subtract()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER events_counts_delete ON events`);
    await q.query(`DROP TRIGGER events_counts_insert ON events`);
    await q.query(`DROP FUNCTION event_counts_hourly_subtract()`);
    await q.query(`DROP FUNCTION event_counts_hourly_add()`);
    await q.query(`DROP TABLE event_counts_hourly`);
  }
}
