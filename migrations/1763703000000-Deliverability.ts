import { MigrationInterface, QueryRunner } from 'typeorm';

export class Deliverability1763703000000 implements MigrationInterface {
  name = 'Deliverability1763703000000';

  async up(q: QueryRunner): Promise<void> {
    // reason values are persisted: 'bounce' | 'complaint' | 'manual'; source: 'sns' | 'smtp' | 'api'.
    await q.query(`
      CREATE TABLE suppressions (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        email text NOT NULL,
        reason text NOT NULL,
        source text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, email)
      )`);
    // SNS retries deliver the same MessageId again; the primary key makes each one count once.
    await q.query(`
      CREATE TABLE sns_messages (
        message_id text PRIMARY KEY,
        type text NOT NULL,
        topic_arn text,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sns_messages_received_idx ON sns_messages (received_at)`);
    // reason values are persisted: 'EMAIL_REPUTATION'.
    await q.query(`
      CREATE TABLE project_suspensions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        reason text NOT NULL,
        email_count integer NOT NULL,
        bounce_count integer NOT NULL,
        complaint_count integer NOT NULL,
        bounce_rate double precision NOT NULL,
        complaint_rate double precision NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        lifted_at timestamptz
      )`);
    await q.query(`CREATE INDEX project_suspensions_project_idx ON project_suspensions (project_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS project_suspensions`);
    await q.query(`DROP TABLE IF EXISTS sns_messages`);
    await q.query(`DROP TABLE IF EXISTS suppressions`);
  }
}
