import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The durable event outbox: `events.seq` orders every event row (the consumers' cursor), one
 * cursor row per consumer, and a statement trigger that NOTIFYs workers when a transaction that
 * wrote events commits (PostgreSQL delivers notifications only on commit).
 */
export class EventOutbox1763705000000 implements MigrationInterface {
  name = 'EventOutbox1763705000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN seq bigserial`);
    await q.query(`CREATE UNIQUE INDEX events_seq_key ON events (seq)`);
    await q.query(`
      CREATE TABLE event_consumer_cursors (
        consumer text PRIMARY KEY,
        last_seq bigint NOT NULL,
        leased_until timestamptz,
        leased_by text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE FUNCTION events_notify_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('mailroom_events', '');
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER events_notify_commit AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION events_notify_commit()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS events_notify_commit ON events`);
    await q.query(`DROP FUNCTION IF EXISTS events_notify_commit()`);
    await q.query(`DROP TABLE IF EXISTS event_consumer_cursors`);
    await q.query(`DROP INDEX IF EXISTS events_seq_key`);
    await q.query(`ALTER TABLE events DROP COLUMN IF EXISTS seq`);
  }
}
