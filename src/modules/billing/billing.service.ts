import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ProjectsService } from '../projects';
import { billingLimitExceeded } from './billing.errors';
import { BillingRepository } from './billing.repository';
import { BILLING_CATEGORIES, BillingCategory, BillingConsumptionResponse, BillingLimitsResponse, billingPeriod, categoryLimit } from './billing.types';
import type { UpdateBillingLimitsDto } from './dto/update-billing-limits.dto';

@Injectable()
export class BillingService {
  constructor(
    private readonly repository: BillingRepository,
    private readonly projects: ProjectsService,
  ) {}

  /**
   * Counts `count` emails of `category` in the caller's transaction, or throws 402
   * BILLING_LIMIT_EXCEEDED (the caller's transaction then rolls back: nothing is written). The
   * cap is re-checked under the usage row's lock (`BillingRepository.tryConsume`), so concurrent
   * senders cannot overshoot.
   */
  async consume(manager: EntityManager, projectId: string, category: BillingCategory, count: number): Promise<void> {
    if (count <= 0) return;
    if (!(await this.repository.tryConsume(projectId, category, count, manager))) {
      const state = await this.repository.state(projectId, category, manager);
      throw billingLimitExceeded(category, state.limit, state.used, count);
    }
  }

  /**
   * A check without counting, for refusing work up front (a campaign send before anything
   * leaves): 402 when `count` more would pass the cap now. `consume` stays the guard that holds.
   */
  async assertAvailable(projectId: string, category: BillingCategory, count: number): Promise<void> {
    const { limit, used } = await this.repository.state(projectId, category);
    if (limit !== null && used + count > limit) throw billingLimitExceeded(category, limit, used, count);
  }

  async limits(userId: string, projectId: string): Promise<BillingLimitsResponse> {
    await this.projects.requireRole(projectId, userId, 'ADMIN');
    return this.readLimits(projectId);
  }

  async updateLimits(userId: string, projectId: string, dto: UpdateBillingLimitsDto): Promise<BillingLimitsResponse> {
    await this.projects.requireRole(projectId, userId, 'ADMIN');
    await this.repository.setLimits(projectId, dto);
    return this.readLimits(projectId);
  }

  async consumption(userId: string, projectId: string): Promise<BillingConsumptionResponse> {
    await this.projects.requireRole(projectId, userId, 'ADMIN');
    const { start, end } = billingPeriod();
    const used = await this.repository.usage(projectId);
    return { periodStart: start.toISOString(), periodEnd: end.toISOString(), ...used };
  }

  private async readLimits(projectId: string): Promise<BillingLimitsResponse> {
    const [account, used] = await Promise.all([this.repository.limits(projectId), this.repository.usage(projectId)]);
    return Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, categoryLimit(account?.[c] ?? null, used[c])])) as BillingLimitsResponse;
  }
}
