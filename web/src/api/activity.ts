import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { qk } from './queryKeys';
import type { CursorList } from './types';

export interface ActivityItem {
  id: string;
  type: string;
  createdAt: string;
  contact: { id: string; email: string } | null;
  emailId?: string;
  campaignId?: string;
  subject?: string;
  eventName?: string;
  data: Record<string, unknown> | null;
}
export interface UpcomingCampaign {
  id: string;
  name: string;
  subject: string;
  scheduledFor: string;
}
export interface UpcomingExecution {
  id: string;
  workflowId: string;
  workflowName: string;
  contact: { id: string; email: string } | null;
  /** Null for a wait without timeout. */
  dueAt: string | null;
}

export const ACTIVITY_TYPES = ['email.sent', 'email.delivery', 'email.open', 'email.click', 'email.bounce', 'email.complaint', 'email.received', 'event'];

export function useActivity(types: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useInfiniteQuery({
    queryKey: qk.p(projectId, 'activity', 'feed', types),
    queryFn: ({ pageParam, signal }) => api.get<CursorList<ActivityItem>>('/activity', { types, limit: 50, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
    refetchInterval: 15_000,
  });
}

export function useActivityTypes() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'activity', 'types'), queryFn: () => api.get<{ types: string[] }>('/activity/types') });
}

export function useUpcoming() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'activity', 'upcoming'), queryFn: () => api.get<{ campaigns: UpcomingCampaign[]; executions: UpcomingExecution[] }>('/activity/upcoming'), refetchInterval: 30_000 });
}

export function useActivityStats() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'activity', 'stats'),
    queryFn: () => api.get<{ sent: number; delivered: number; opened: number; clicked: number; bounced: number; complained: number; received: number; events: number }>('/activity/stats'),
  });
}
