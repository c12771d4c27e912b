import { MigrationInterface, QueryRunner } from 'typeorm';

export class AbTests1764600000000 implements MigrationInterface {
  name = 'AbTests1764600000000';

  async up(q: QueryRunner): Promise<void> {
    // A/B tests (docs/delivery-control.md#ab-tests): the test's settings and its state, persisted on the
    // campaign so a worker killed at any moment resumes where the database says; the emails carry their variant.
    await q.query(`ALTER TABLE campaigns
      ADD COLUMN ab_test jsonb,
      ADD COLUMN ab_phase text,
      ADD COLUMN ab_contents jsonb,
      ADD COLUMN ab_seed jsonb,
      ADD COLUMN ab_wait_until timestamptz,
      ADD COLUMN ab_winner text,
      ADD COLUMN ab_decided_at timestamptz`);
    await q.query(`ALTER TABLE emails ADD COLUMN variant text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE emails DROP COLUMN IF EXISTS variant`);
    await q.query(`ALTER TABLE campaigns
      DROP COLUMN IF EXISTS ab_test, DROP COLUMN IF EXISTS ab_phase, DROP COLUMN IF EXISTS ab_contents, DROP COLUMN IF EXISTS ab_seed,
      DROP COLUMN IF EXISTS ab_wait_until, DROP COLUMN IF EXISTS ab_winner, DROP COLUMN IF EXISTS ab_decided_at`);
  }
}
