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

/**
 * The API has no "count this tree" endpoint: the live count of the builder keeps one scratch
 * DYNAMIC segment per editor (this description marks it; lists hide it) and deletes it when the
 * editor closes. See SegmentEditorPage's useLiveCount.
 */
export const PREVIEW_MARKER = 'mailroom-dashboard: live count of an unsaved filter (deleted when the editor closes)';
export const isPreviewSegment = (s: Pick<Segment, 'description'>) => s.description === PREVIEW_MARKER;

export function useSegments() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'segments', 'list'),
    queryFn: async ({ signal }) => {
      const all = await api.get<Segment[]>('/segments', undefined, signal);
      // Scratch segments of editors closed without cleanup (tab closed, crash) go after an hour.
      for (const s of all) if (isPreviewSegment(s) && Date.now() - Date.parse(s.updatedAt) > 3_600_000) void api.del(`/segments/${s.id}`).catch(() => undefined);
      return all.filter((s) => !isPreviewSegment(s));
    },
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
