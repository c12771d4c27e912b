import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { qk } from './queryKeys';
import type { Contact } from './types';
import type { FilterTree } from '../pages/segments/filterTree';

export type SegmentType = 'DYNAMIC' | 'STATIC';

export interface Segment {
  id: string;
  name: string;
  description: string | null;
  type: SegmentType;
  condition: FilterTree | null;
  trackMembership: boolean;
  memberCount: number;
  projectId: string;
  createdAt: string;
  updatedAt: string;
}

export interface SegmentInput {
  name: string;
  description?: string;
  type?: SegmentType;
  condition?: FilterTree;
  trackMembership?: boolean;
}

export interface SegmentMembers {
  data: Contact[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

export function useSegments() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'segments', 'list'),
    queryFn: ({ signal }) => api.get<Segment[]>('/segments', undefined, signal),
  });
}

export function useSegment(segmentId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'segments', 'one', segmentId),
    queryFn: () => api.get<Segment>(`/segments/${encodeURIComponent(segmentId!)}`),
    enabled: Boolean(segmentId),
  });
}

export function useSegmentMembers(segmentId: string, page: number, pageSize = 25) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'segments', 'members', segmentId, page),
    queryFn: ({ signal }) => api.get<SegmentMembers>(`/segments/${encodeURIComponent(segmentId)}/contacts`, { page, pageSize }, signal),
    placeholderData: (previous) => previous,
  });
}

export function useEventNames() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'events', 'names'),
    queryFn: async () => {
      const r = await api.get<unknown>('/events/names');
      const list = Array.isArray(r) ? r : ((r as { names?: unknown[]; data?: unknown[] }).names ?? (r as { data?: unknown[] }).data ?? []);
      return list.map((n) => (typeof n === 'string' ? n : String((n as { name?: string }).name ?? ''))).filter(Boolean);
    },
  });
}
