import { useQuery } from '@tanstack/react-query';
import { useProjectId } from '../lib/project';
import { accountClient as api, data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

export const BILLING_CATEGORIES = ['transactional', 'campaigns', 'workflows', 'inbound'] as const;
export type BillingCategory = (typeof BILLING_CATEGORIES)[number];

export type LimitState = components['schemas']['CategoryLimitSchema'];
export type BillingLimits = components['schemas']['BillingLimitsSchema'];
export type BillingConsumption = components['schemas']['BillingConsumptionSchema'];

/** Account-level (session, no project header): /users/@me/projects/:id/… */
export const billingApi = {
  limits: (id: string) => data(api.GET('/users/@me/projects/{id}/billing-limits', { params: { path: { id } } })),
  /** A value the form could not read as a number is sent as typed, so the API's 422 names its field. */
  updateLimits: (id: string, body: Record<BillingCategory, number | null | string>) =>
    data(api.PUT('/users/@me/projects/{id}/billing-limits', { params: { path: { id } }, body: body as components['schemas']['UpdateBillingLimitsDto'] })),
  consumption: (id: string) => data(api.GET('/users/@me/projects/{id}/billing-consumption', { params: { path: { id } } })),
  checkout: (id: string) => data(api.POST('/users/@me/projects/{id}/checkout', { params: { path: { id } } })),
  portal: (id: string) => data(api.POST('/users/@me/projects/{id}/billing-portal', { params: { path: { id } } })),
};

export function useBillingLimits() {
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'billing', 'limits'), queryFn: () => billingApi.limits(projectId) });
}

export function useBillingConsumption() {
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'billing', 'consumption'), queryFn: () => billingApi.consumption(projectId), refetchInterval: 60_000 });
}
