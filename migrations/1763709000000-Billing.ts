import { MigrationInterface, QueryRunner } from 'typeorm';

export class Billing1763709000000 implements MigrationInterface {
  name = 'Billing1763709000000';

  async up(q: QueryRunner): Promise<void> {
    // One row per project once anything billing-related is set: caps per category (null = no cap)
    // and the Stripe customer created by the first checkout.
    await q.query(`
      CREATE TABLE billing_accounts (
        project_id uuid PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        workflows_limit integer,
        campaigns_limit integer,
        transactional_limit integer,
        inbound_limit integer,
        stripe_customer_id text,
        subscription_status text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Emails counted per calendar month (UTC), incremented in the transaction that writes them:
    // the conditional upsert on this row is what keeps concurrent sends under a cap.
    await q.query(`
      CREATE TABLE billing_usage (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        period date NOT NULL,
        category text NOT NULL,
        used integer NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, period, category)
      )`);
    await q.query(`CREATE UNIQUE INDEX billing_accounts_stripe_customer_key ON billing_accounts (stripe_customer_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing_usage`);
    await q.query(`DROP TABLE billing_accounts`);
  }
}
