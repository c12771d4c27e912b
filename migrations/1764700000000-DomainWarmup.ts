import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Domain warm-up (docs/delivery-control.md, "Domain warm-up"): a domain's daily cap settings and
 * the UTC day its warm-up started (day 0), a per-(domain, UTC day) count of the emails sent from
 * it, and a not-before time on emails a cap holds back to a later day.
 */
export class DomainWarmup1764700000000 implements MigrationInterface {
  name = 'DomainWarmup1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE domains ADD COLUMN warmup_enabled boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE domains ADD COLUMN warmup_start_per_day integer NOT NULL DEFAULT 50`);
    await q.query(`ALTER TABLE domains ADD COLUMN warmup_growth_percent integer NOT NULL DEFAULT 50`);
    await q.query(`ALTER TABLE domains ADD COLUMN warmup_max_per_day integer`);
    // Day 0 of the warm-up is this instant's UTC date; set when it is enabled, null while it is off.
    await q.query(`ALTER TABLE domains ADD COLUMN warmup_started_at timestamptz`);
    await q.query(`
      CREATE TABLE domain_send_counts (
        domain_id uuid NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
        day date NOT NULL,
        sent integer NOT NULL DEFAULT 0,
        PRIMARY KEY (domain_id, day)
      )`);
    // Held by a warm-up cap: not claimed before this time (the sweep enqueues it once it has passed).
    await q.query(`ALTER TABLE emails ADD COLUMN not_before timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE emails DROP COLUMN not_before`);
    await q.query(`DROP TABLE domain_send_counts`);
    for (const column of ['warmup_started_at', 'warmup_max_per_day', 'warmup_growth_percent', 'warmup_start_per_day', 'warmup_enabled']) {
      await q.query(`ALTER TABLE domains DROP COLUMN ${column}`);
    }
  }
}
