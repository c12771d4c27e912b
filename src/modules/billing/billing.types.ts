/** Persisted values (billing_usage.category): renaming them strands data. */
export const BILLING_CATEGORIES = ['workflows', 'campaigns', 'transactional', 'inbound'] as const;
export type BillingCategory = (typeof BILLING_CATEGORIES)[number];

/** docs/decisions.md#billing-security-uploads: a category is "warning" from 80% of its cap. */
export const WARNING_RATIO = 0.8;

export interface CategoryLimit {
  limit: number | null;
  usage: number;
  percentage: number;
  isWarning: boolean;
  isBlocked: boolean;
}

export type BillingLimitsResponse = Record<BillingCategory, CategoryLimit>;

export interface BillingConsumptionResponse extends Record<BillingCategory, number> {
  periodStart: string;
  periodEnd: string;
}

/** The UTC calendar month containing `now`: [start, end). */
export function billingPeriod(now = new Date()): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

export function categoryLimit(limit: number | null, usage: number): CategoryLimit {
  const percentage = limit === null ? 0 : limit === 0 ? 100 : Math.round((usage / limit) * 10000) / 100;
  return {
    limit,
    usage,
    percentage,
    isWarning: limit !== null && usage >= limit * WARNING_RATIO,
    isBlocked: limit !== null && usage >= limit,
  };
}
