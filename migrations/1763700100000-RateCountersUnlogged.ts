import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate and login counters are short-lived and rebuilt by traffic: skipping the WAL lets each
 * per-request upsert commit without waiting for a disk flush, which on a hot counter row was
 * the throughput ceiling of the PostgreSQL-only mode. A crash merely resets the counters.
 */
export class RateCountersUnlogged1763700100000 implements MigrationInterface {
  name = 'RateCountersUnlogged1763700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rate_counters SET UNLOGGED`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rate_counters SET LOGGED`);
  }
}
