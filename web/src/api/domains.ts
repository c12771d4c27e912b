import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { qk } from './queryKeys';
import type { Domain } from './types';

export function useDomains() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'domains'), queryFn: () => api.get<Domain[]>(`/domains/project/${encodeURIComponent(projectId)}`) });
}
