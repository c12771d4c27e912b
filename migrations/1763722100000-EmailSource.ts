import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where an email came from when it is not the API's: `smtp` for the submission relay
 * (docs/smtp.md); its `email.*` events carry it as `source`. Null for every other email. A
 * nullable column without a default: no table rewrite.
 */
export class EmailSource1763722100000 implements MigrationInterface {
  name = 'EmailSource1763722100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE emails ADD COLUMN source text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE emails DROP COLUMN source`);
  }
}
