import { useQuery } from '@tanstack/react-query';
import { useProjectId } from '../lib/project';
import { apiRequest } from './client';
import { qk } from './queryKeys';

export const BILLING_CATEGORIES = ['transactional', 'campaigns', 'workflows', 'inbound'] as const;
export type BillingCategory = (typeof BILLING_CATEGORIES)[number];

export interface LimitState {
  limit: number | null;
  usage: number;
  percentage: number;
  isWarning: boolean;
  isBlocked: boolean;
}
export type BillingLimits = Record<BillingCategory, LimitState>;
export interface BillingConsumption {
  periodStart: string;
  periodEnd: string;
  transactional: number;
  campaigns: number;
  workflows: number;
  inbound: number;
}

/** Account-level (session, no project header): /users/@me/projects/:id/… */
export const billingPath = (projectId: string, what: string) => `/users/@me/projects/${encodeURIComponent(projectId)}/${what}`;

export function useBillingLimits() {
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'billing', 'limits'), queryFn: () => apiRequest<BillingLimits>(billingPath(projectId, 'billing-limits')) });
}

export function useBillingConsumption() {
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'billing', 'consumption'), queryFn: () => apiRequest<BillingConsumption>(billingPath(projectId, 'billing-consumption')), refetchInterval: 60_000 });
}
