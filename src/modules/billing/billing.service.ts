import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ProjectsService } from '../projects/projects.service';
import { billingLimitExceeded } from './billing.errors';
import { BILLING_CATEGORIES, BillingCategory, BillingConsumptionResponse, BillingLimitsResponse, billingPeriod, categoryLimit } from './billing.types';
import type { UpdateBillingLimitsDto } from './dto/update-billing-limits.dto';

/** Column of billing_accounts holding a category's cap (a closed list, never caller input). */
const LIMIT_COLUMN: Record<BillingCategory, string> = {
  workflows: 'workflows_limit',
  campaigns: 'campaigns_limit',
  transactional: 'transactional_limit',
  inbound: 'inbound_limit',
};

const PERIOD_SQL = `date_trunc('month', now() AT TIME ZONE 'UTC')::date`;

@Injectable()
export class BillingService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectsService,
  ) {}

  /**
   * Counts `count` emails of `category` in the caller's transaction, or throws 402
   * BILLING_LIMIT_EXCEEDED (the caller's transaction then rolls back: nothing is written). The
   * conditional upsert re-checks the cap against the row's latest value under its row lock, so
   * concurrent senders cannot overshoot.
   */
  async consume(manager: EntityManager, projectId: string, category: BillingCategory, count: number): Promise<void> {
    if (count <= 0) return;
    const cap = `(SELECT ${LIMIT_COLUMN[category]} FROM billing_accounts WHERE project_id = $1::uuid)`;
    const rows: unknown[] = await manager.query(
      `INSERT INTO billing_usage AS u (project_id, period, category, used)
         SELECT $1::uuid, ${PERIOD_SQL}, $2::text, $3::integer WHERE $3::integer <= COALESCE(${cap}, 2147483647)
       ON CONFLICT (project_id, period, category) DO UPDATE SET used = u.used + EXCLUDED.used
         WHERE u.used + EXCLUDED.used <= COALESCE(${cap}, 2147483647)
       RETURNING used`,
      [projectId, category, count],
    );
    if (rows.length === 0) {
      const state = await this.state(manager, projectId, category);
      throw billingLimitExceeded(category, state.limit, state.used, count);
    }
  }

  /**
   * A check without counting, for refusing work up front (a campaign send before anything
   * leaves): 402 when `count` more would pass the cap now. `consume` stays the guard that holds.
   */
  async assertAvailable(projectId: string, category: BillingCategory, count: number): Promise<void> {
    const { limit, used } = await this.state(this.dataSource.manager, projectId, category);
    if (limit !== null && used + count > limit) throw billingLimitExceeded(category, limit, used, count);
  }

  async limits(userId: string, projectId: string): Promise<BillingLimitsResponse> {
    await this.projects.requireRole(projectId, userId, 'ADMIN');
    return this.readLimits(projectId);
  }

  async updateLimits(userId: string, projectId: string, dto: UpdateBillingLimitsDto): Promise<BillingLimitsResponse> {
    await this.projects.requireRole(projectId, userId, 'ADMIN');
    const given = BILLING_CATEGORIES.filter((c) => dto[c] !== undefined);
    if (given.length > 0) {
      const columns = given.map((c) => LIMIT_COLUMN[c]);
      const values = given.map((c) => dto[c] ?? null);
      await this.dataSource.query(
        `INSERT INTO billing_accounts (project_id, ${columns.join(', ')}) VALUES ($1, ${columns.map((_, i) => `$${i + 2}::integer`).join(', ')})
         ON CONFLICT (project_id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()`,
        [projectId, ...values],
      );
    }
    return this.readLimits(projectId);
  }

  async consumption(userId: string, projectId: string): Promise<BillingConsumptionResponse> {
    await this.projects.requireRole(projectId, userId, 'ADMIN');
    const { start, end } = billingPeriod();
    const used = await this.usage(projectId);
    return { periodStart: start.toISOString(), periodEnd: end.toISOString(), ...used };
  }

  private async state(manager: EntityManager, projectId: string, category: BillingCategory): Promise<{ limit: number | null; used: number }> {
    const [row]: Array<{ limit: number | null; used: number | null }> = await manager.query(
      `SELECT (SELECT ${LIMIT_COLUMN[category]} FROM billing_accounts WHERE project_id = $1) AS "limit",
              (SELECT used FROM billing_usage WHERE project_id = $1 AND period = ${PERIOD_SQL} AND category = $2) AS used`,
      [projectId, category],
    );
    return { limit: row?.limit ?? null, used: Number(row?.used ?? 0) };
  }

  private async readLimits(projectId: string): Promise<BillingLimitsResponse> {
    const [[account], used] = await Promise.all([
      this.dataSource.query(
        `SELECT workflows_limit AS workflows, campaigns_limit AS campaigns, transactional_limit AS transactional, inbound_limit AS inbound
           FROM billing_accounts WHERE project_id = $1`,
        [projectId],
      ) as Promise<Array<Record<BillingCategory, number | null>>>,
      this.usage(projectId),
    ]);
    return Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, categoryLimit(account?.[c] ?? null, used[c])])) as BillingLimitsResponse;
  }

  private async usage(projectId: string): Promise<Record<BillingCategory, number>> {
    const rows: Array<{ category: BillingCategory; used: number }> = await this.dataSource.query(
      `SELECT category, used FROM billing_usage WHERE project_id = $1 AND period = ${PERIOD_SQL}`,
      [projectId],
    );
    const used = Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, 0])) as Record<BillingCategory, number>;
    for (const row of rows) used[row.category] = Number(row.used);
    return used;
  }
}
