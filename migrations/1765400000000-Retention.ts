import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention (docs/retention.md): a project's setting (only the keys it set; the defaults live in
 * `projects/retention/retention-policy.ts`), and which email content rows an audience (a
 * campaign, an A/B variant) holds: those are never deleted with their emails' expired content.
 */
export class Retention1765400000000 implements MigrationInterface {
  name = 'Retention1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects ADD COLUMN retention jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await q.query(`ALTER TABLE email_contents ADD COLUMN audience boolean NOT NULL DEFAULT false`);
    await q.query(`
      UPDATE email_contents SET audience = true
       WHERE id IN (SELECT content_id FROM campaigns WHERE content_id IS NOT NULL
                    UNION SELECT v.value::uuid FROM campaigns c, jsonb_each_text(c.ab_contents) v WHERE c.ab_contents IS NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_contents DROP COLUMN audience`);
    await q.query(`ALTER TABLE projects DROP COLUMN retention`);
  }
}
