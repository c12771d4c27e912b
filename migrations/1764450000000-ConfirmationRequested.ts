import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Double opt-in without a crash window (docs/consent.md): `confirmation_requested_at` is set by the
 * contact upsert that decides a contact must confirm, in the same statement, and cleared in the
 * transaction that writes its confirmation email (or finds one sent within the resend interval).
 * A marker older than a minute is a confirmation a crash left owed: the repair pass writes it.
 */
export class ConfirmationRequested1764450000000 implements MigrationInterface {
  name = 'ConfirmationRequested1764450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE contacts ADD COLUMN confirmation_requested_at timestamptz`);
    await q.query(`CREATE INDEX contacts_confirmation_requested_idx ON contacts (confirmation_requested_at) WHERE confirmation_requested_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX contacts_confirmation_requested_idx`);
    await q.query(`ALTER TABLE contacts DROP COLUMN confirmation_requested_at`);
  }
}
