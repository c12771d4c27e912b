import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Double opt-in (docs/extensions.md, section 3): the project's setting, and per contact where its
 * confirmation stands, when it was confirmed and when the last confirmation email left (the
 * 10-minute resend throttle).
 */
export class DoubleOptIn1764400000000 implements MigrationInterface {
  name = 'DoubleOptIn1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects ADD COLUMN double_opt_in jsonb NOT NULL DEFAULT '{"enabled": false}'::jsonb`);
    // confirmation values are persisted: 'pending' | 'confirmed'.
    await q.query(`
      ALTER TABLE contacts
        ADD COLUMN confirmation text,
        ADD COLUMN confirmed_at timestamptz,
        ADD COLUMN confirmation_sent_at timestamptz,
        ADD CONSTRAINT contacts_confirmation_check CHECK (confirmation IN ('pending', 'confirmed'))
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE contacts DROP CONSTRAINT contacts_confirmation_check, DROP COLUMN confirmation, DROP COLUMN confirmed_at, DROP COLUMN confirmation_sent_at`);
    await q.query(`ALTER TABLE projects DROP COLUMN double_opt_in`);
  }
}
