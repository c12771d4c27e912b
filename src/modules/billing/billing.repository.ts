import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { BILLING_CATEGORIES, BillingCategory } from './billing.types';

/** Column of billing_accounts holding a category's cap (a closed list, never caller input). */
const LIMIT_COLUMN: Record<BillingCategory, string> = {
  workflows: 'workflows_limit',
  campaigns: 'campaigns_limit',
  transactional: 'transactional_limit',
  inbound: 'inbound_limit',
};

const PERIOD_SQL = `date_trunc('month', now() AT TIME ZONE 'UTC')::date`;

/** The billing module's tables: billing_accounts (caps, Stripe state) and billing_usage (what the current period used). */
@Injectable()
export class BillingRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Adds `count` to the period's usage of `category` in the caller's transaction when it stays
   * within the cap; false (nothing written) when it would pass it. The conditional upsert
   * re-checks the cap against the row's latest value under its row lock, so concurrent senders
   * cannot overshoot.
   */
  async tryConsume(projectId: string, category: BillingCategory, count: number, manager: EntityManager): Promise<boolean> {
    const cap = `(SELECT ${LIMIT_COLUMN[category]} FROM billing_accounts WHERE project_id = $1::uuid)`;
    const rows: unknown[] = await manager.query(
      `INSERT INTO billing_usage AS u (project_id, period, category, used)
         SELECT $1::uuid, ${PERIOD_SQL}, $2::text, $3::integer WHERE $3::integer <= COALESCE(${cap}, 2147483647)
       ON CONFLICT (project_id, period, category) DO UPDATE SET used = u.used + EXCLUDED.used
         WHERE u.used + EXCLUDED.used <= COALESCE(${cap}, 2147483647)
       RETURNING used`,
      [projectId, category, count],
    );
    return rows.length > 0;
  }

  /** The category's cap (null: none) and what the current period used of it. */
  async state(projectId: string, category: BillingCategory, manager: EntityManager = this.dataSource.manager): Promise<{ limit: number | null; used: number }> {
    const [row]: Array<{ limit: number | null; used: number | null }> = await manager.query(
      `SELECT (SELECT ${LIMIT_COLUMN[category]} FROM billing_accounts WHERE project_id = $1) AS "limit",
              (SELECT used FROM billing_usage WHERE project_id = $1 AND period = ${PERIOD_SQL} AND category = $2) AS used`,
      [projectId, category],
    );
    return { limit: row?.limit ?? null, used: Number(row?.used ?? 0) };
  }

  /** Sets the given categories' caps (null lifts one), creating the account row when missing. */
  async setLimits(projectId: string, limits: Partial<Record<BillingCategory, number | null>>): Promise<void> {
    const given = BILLING_CATEGORIES.filter((c) => limits[c] !== undefined);
    if (given.length === 0) return;
    const columns = given.map((c) => LIMIT_COLUMN[c]);
    const values = given.map((c) => limits[c] ?? null);
    await this.dataSource.query(
      `INSERT INTO billing_accounts (project_id, ${columns.join(', ')}) VALUES ($1, ${columns.map((_, i) => `$${i + 2}::integer`).join(', ')})
       ON CONFLICT (project_id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()`,
      [projectId, ...values],
    );
  }

  /** Each category's cap, or undefined without an account row. */
  async limits(projectId: string): Promise<Record<BillingCategory, number | null> | undefined> {
    const [account]: Array<Record<BillingCategory, number | null>> = await this.dataSource.query(
      `SELECT workflows_limit AS workflows, campaigns_limit AS campaigns, transactional_limit AS transactional, inbound_limit AS inbound
         FROM billing_accounts WHERE project_id = $1`,
      [projectId],
    );
    return account;
  }

  /** What the current period used, per category (0 for a category without a row). */
  async usage(projectId: string): Promise<Record<BillingCategory, number>> {
    const rows: Array<{ category: BillingCategory; used: number }> = await this.dataSource.query(
      `SELECT category, used FROM billing_usage WHERE project_id = $1 AND period = ${PERIOD_SQL}`,
      [projectId],
    );
    const used = Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, 0])) as Record<BillingCategory, number>;
    for (const row of rows) used[row.category] = Number(row.used);
    return used;
  }

  async stripeCustomerId(projectId: string): Promise<string | null> {
    const [account]: Array<{ stripe_customer_id: string | null }> = await this.dataSource.query(`SELECT stripe_customer_id FROM billing_accounts WHERE project_id = $1`, [projectId]);
    return account?.stripe_customer_id ?? null;
  }

  /** Records the project's Stripe customer unless it has one already; returns the one it keeps. */
  async keepStripeCustomer(projectId: string, customerId: string): Promise<string> {
    const [row]: Array<{ stripe_customer_id: string }> = await this.dataSource.query(
      `INSERT INTO billing_accounts (project_id, stripe_customer_id) VALUES ($1, $2)
       ON CONFLICT (project_id) DO UPDATE SET stripe_customer_id = COALESCE(billing_accounts.stripe_customer_id, EXCLUDED.stripe_customer_id), updated_at = now()
       RETURNING stripe_customer_id`,
      [projectId, customerId],
    );
    return row.stripe_customer_id;
  }

  /** A completed checkout's customer, kept only where the project has none or the same one. */
  async setStripeCustomerFromCheckout(projectId: string, customerId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE billing_accounts SET stripe_customer_id = $2, updated_at = now() WHERE project_id = $1 AND (stripe_customer_id IS NULL OR stripe_customer_id = $2)`,
      [projectId, customerId],
    );
  }

  /** A subscription's status by Stripe customer: the webhook names the customer, not the project. */
  async setSubscriptionStatusByCustomerAnyProject(customerId: string, status: string | null): Promise<void> {
    await this.dataSource.query(`UPDATE billing_accounts SET subscription_status = $2, updated_at = now() WHERE stripe_customer_id = $1`, [customerId, status]);
  }
}
