import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { qk } from './queryKeys';

export interface TimeseriesPoint {
  date: string;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
}

export function useTimeseries(params: { from?: string; to?: string; interval: 'day' | 'hour' }) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'analytics', 'timeseries', params),
    queryFn: ({ signal }) => api.get<{ interval: string; data: TimeseriesPoint[] }>('/analytics/timeseries', params, signal),
    placeholderData: (previous) => previous,
  });
}

export function useTopCampaigns(metric: 'opens' | 'clicks' | 'sent') {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'analytics', 'top-campaigns', metric), queryFn: () => api.get<{ data: { id: string; name: string; value: number }[] }>('/analytics/top-campaigns', { metric, limit: 10 }) });
}

export function useTopEvents() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'analytics', 'top-events'), queryFn: () => api.get<{ data: { name: string; count: number }[] }>('/analytics/top-events', { limit: 10 }) });
}
