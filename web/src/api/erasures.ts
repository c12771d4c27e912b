import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

export type Erasure = components['schemas']['ErasureResponse'];
export type ErasureListItem = components['schemas']['ErasureListItemResponse'];

export const ERASURE_STATUS_LABELS: Record<Erasure['status'], string> = {
  queued: 'Queued',
  running: 'Erasing',
  completed: 'Erased',
  failed: 'Failed',
};

const finished = (status: Erasure['status'] | undefined) => status === 'completed' || status === 'failed';

/** One erasure, polled every second until it completes or fails. */
export function useErasure(jobId: string | null) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'erasures', jobId),
    queryFn: ({ signal }) => data(api.GET('/contacts/erasures/{jobId}', { params: { path: { jobId: jobId! } }, signal })),
    enabled: jobId !== null,
    refetchInterval: (query) => (finished(query.state.data?.status) ? false : 1_000),
  });
}

/** The project's erasures, newest first, a cursor page at a time. */
export function useErasures() {
  const api = useApi();
  const projectId = useProjectId();
  return useInfiniteQuery({
    queryKey: qk.p(projectId, 'erasures', 'list'),
    queryFn: ({ pageParam, signal }) => data(api.GET('/contacts/erasures', { params: { query: { limit: 50, cursor: pageParam } }, signal })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
  });
}
