import { MigrationInterface, QueryRunner } from 'typeorm';

export class Domains1763701500000 implements MigrationInterface {
  name = 'Domains1763701500000';

  async up(q: QueryRunner): Promise<void> {
    // status values are persisted: 'pending' | 'verified'.
    await q.query(`
      CREATE TABLE domains (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        domain text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        dkim_selector text,
        dkim_private_key text,
        dkim_public_key text,
        records jsonb NOT NULL DEFAULT '[]'::jsonb,
        ses_identity jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        verified_at timestamptz,
        last_checked_at timestamptz,
        CONSTRAINT domains_status_check CHECK (status IN ('pending', 'verified'))
      )`);
    // One owner per domain name across all projects: a claimed name is a 409 for everyone else.
    await q.query(`CREATE UNIQUE INDEX domains_domain_key ON domains (domain)`);
    await q.query(`CREATE INDEX domains_project_idx ON domains (project_id)`);
    await q.query(`CREATE INDEX domains_last_checked_idx ON domains (last_checked_at NULLS FIRST)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS domains`);
  }
}
