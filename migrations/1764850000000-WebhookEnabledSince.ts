import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookEnabledSince1764850000000 implements MigrationInterface {
  name = 'WebhookEnabledSince1764850000000';

  async up(q: QueryRunner): Promise<void> {
    // When the endpoint was created or last enabled: the fan-out sends it only events recorded
    // since, however late it runs (it yields to a busy API, and the outbox can lag).
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN enabled_since timestamptz NOT NULL DEFAULT now()`);
    await q.query(`UPDATE webhook_endpoints SET enabled_since = created_at`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN IF EXISTS enabled_since`);
  }
}
