import type { AppConfig } from '../../../config/config';
import type { CounterStore } from './counter-store';

const WINDOW_MS = 60_000;

export interface BudgetHit {
  limit: number;
  count: number;
  resetMs: number;
  exceeded: boolean;
}

/**
 * One hit on a project's per-minute budget (`RATE_LIMIT_PER_MINUTE`), shared by every process:
 * key-authenticated API requests (the interceptor) and SMTP submissions (the relay) draw on it.
 */
export async function hitProjectBudget(counters: CounterStore, config: Pick<AppConfig, 'rateLimitPerMinute'>, projectId: string): Promise<BudgetHit> {
  const limit = config.rateLimitPerMinute;
  const { count, resetMs } = await counters.hit(`rl:${projectId}`, WINDOW_MS);
  return { limit, count, resetMs, exceeded: count > limit };
}
