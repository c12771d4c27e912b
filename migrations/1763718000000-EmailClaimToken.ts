import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each claim of an email (queued → sending) writes a token of its own, so a worker whose claim
 * statement lost its answer (the connection dropped; it may or may not have committed) can put
 * back exactly its own claim once the database answers: nothing was handed over, so the email is
 * `queued` again rather than `uncertain` when its lease runs out. A nullable column without a
 * default: no table rewrite.
 */
export class EmailClaimToken1763718000000 implements MigrationInterface {
  name = 'EmailClaimToken1763718000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE emails ADD COLUMN claim_token uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE emails DROP COLUMN claim_token`);
  }
}
