import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyResponse1763715500000 implements MigrationInterface {
  name = 'IdempotencyResponse1763715500000';

  async up(q: QueryRunner): Promise<void> {
    // The first answer's body, returned in a repeat's 409 (`originalResponse`). Keys are now
    // claimed in the request's own transaction, so a row exists only for a committed effect.
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN response jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN response`);
  }
}
