import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { EmailType, OffsetList, Template } from './types';

export interface TemplateListParams {
  page: number;
  search?: string;
  type?: EmailType | '';
  sort?: 'createdAt' | 'updatedAt' | 'name';
  dir?: 'asc' | 'desc';
}

export function useTemplateList(params: TemplateListParams) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'templates', 'list', params),
    queryFn: async ({ signal }) => (await data(api.GET('/templates', { params: { query: { ...params, type: params.type || undefined, pageSize: 20 } }, signal }))) as OffsetList<Template>,
    placeholderData: (previous) => previous,
  });
}

export function useTemplate(templateId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'templates', 'one', templateId),
    queryFn: async () => (await data(api.GET('/templates/{id}', { params: { path: { id: templateId! } } }))) as Template,
    enabled: Boolean(templateId),
  });
}

export const EMAIL_TYPES: { value: EmailType; label: string; help: string }[] = [
  { value: 'MARKETING', label: 'Marketing', help: 'Skips unsubscribed and suppressed contacts; adds an unsubscribe footer and List-Unsubscribe.' },
  { value: 'TRANSACTIONAL', label: 'Transactional', help: 'Receipts, password resets: sent whatever the subscription.' },
  { value: 'HEADLESS', label: 'Headless', help: 'Respects subscriptions like marketing, without the footer.' },
];
