import { MigrationInterface, QueryRunner } from 'typeorm';

export class AbTestCuts1764900000000 implements MigrationInterface {
  name = 'AbTestCuts1764900000000';

  async up(q: QueryRunner): Promise<void> {
    // The A/B test share as cut points in the hash order of the fixed audience (docs/delivery-control.md#ab-tests):
    // the last (hash, contact id) of each variant, computed once when sending starts. Campaigns that started
    // before keep their ab_seed and the older per-contact hash rule until they finish.
    await q.query(`ALTER TABLE campaigns ADD COLUMN ab_cuts jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns DROP COLUMN IF EXISTS ab_cuts`);
  }
}
