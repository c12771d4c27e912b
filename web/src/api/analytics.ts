import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

export type TimeseriesPoint = components['schemas']['TimeseriesPointSchema'];

export function useTimeseries(params: { from?: string; to?: string; interval: 'day' | 'hour' }) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'analytics', 'timeseries', params),
    queryFn: ({ signal }) => data(api.GET('/analytics/timeseries', { params: { query: params }, signal })),
    placeholderData: (previous) => previous,
  });
}

export function useTopCampaigns(metric: 'opens' | 'clicks' | 'sent') {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'analytics', 'top-campaigns', metric), queryFn: () => data(api.GET('/analytics/top-campaigns', { params: { query: { metric, limit: 10 } } })) });
}

export function useTopEvents() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'analytics', 'top-events'), queryFn: () => data(api.GET('/analytics/top-events', { params: { query: { limit: 10 } } })) });
}
