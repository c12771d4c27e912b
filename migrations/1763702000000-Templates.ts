import { MigrationInterface, QueryRunner } from 'typeorm';

export class Templates1763702000000 implements MigrationInterface {
  name = 'Templates1763702000000';

  async up(q: QueryRunner): Promise<void> {
    // `type` holds persisted enum values TRANSACTIONAL | MARKETING | HEADLESS.
    await q.query(`
      CREATE TABLE templates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        subject text NOT NULL,
        body text NOT NULL,
        from_address text NOT NULL,
        from_name text,
        reply_to text,
        type text NOT NULL DEFAULT 'MARKETING',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX templates_project_created_idx ON templates (project_id, created_at DESC, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS templates`);
  }
}
