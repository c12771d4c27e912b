import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';

export function useDomains() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'domains'), queryFn: () => data(api.GET('/domains/project/{projectId}', { params: { path: { projectId } } })) });
}
