import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

export type Segment = components['schemas']['SegmentResponse'];
export type SegmentType = Segment['type'];

export function useSegments() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'segments', 'list'),
    queryFn: ({ signal }) => data(api.GET('/segments', { signal })),
  });
}

export function useSegment(segmentId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'segments', 'one', segmentId),
    queryFn: () => data(api.GET('/segments/{id}', { params: { path: { id: segmentId! } } })),
    enabled: Boolean(segmentId),
  });
}

export function useSegmentMembers(segmentId: string, page: number, pageSize = 25) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'segments', 'members', segmentId, page),
    queryFn: ({ signal }) => data(api.GET('/segments/{id}/contacts', { params: { path: { id: segmentId }, query: { page, pageSize } }, signal })),
    placeholderData: (previous) => previous,
  });
}

export function useEventNames() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'events', 'names'),
    queryFn: async () => {
      const { names = [] } = await data(api.GET('/events/names'));
      return names.map((n) => n.name ?? '').filter(Boolean);
    },
  });
}
