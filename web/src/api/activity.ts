import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

export type ActivityItem = components['schemas']['ActivityItem'];
export type UpcomingCampaign = components['schemas']['UpcomingCampaignSchema'];
export type UpcomingExecution = components['schemas']['UpcomingExecutionSchema'];

export const ACTIVITY_TYPES = ['email.sent', 'email.delivery', 'email.open', 'email.click', 'email.bounce', 'email.complaint', 'email.received', 'event'];

export function useActivity(types: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useInfiniteQuery({
    queryKey: qk.p(projectId, 'activity', 'feed', types),
    queryFn: ({ pageParam, signal }) => data(api.GET('/activity', { params: { query: { types, limit: 50, cursor: pageParam } }, signal })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
    refetchInterval: 15_000,
  });
}

export function useActivityTypes() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'activity', 'types'), queryFn: () => data(api.GET('/activity/types')) });
}

export function useUpcoming() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'activity', 'upcoming'), queryFn: () => data(api.GET('/activity/upcoming')), refetchInterval: 30_000 });
}

export function useActivityStats() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'activity', 'stats'),
    queryFn: () => data(api.GET('/activity/stats')),
  });
}

/** A contact's received mail (`email.received` activity), newest first. */
export function useContactInbound(contactId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'activity', 'inbound', contactId),
    queryFn: () => data(api.GET('/activity', { params: { query: { types: 'email.received', contactId, limit: 20 } } })),
  });
}
