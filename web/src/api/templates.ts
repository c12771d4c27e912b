import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { qk } from './queryKeys';
import type { EmailType, OffsetList, Template } from './types';

export interface TemplateListParams {
  page: number;
  search?: string;
  type?: EmailType | '';
  sort?: 'createdAt' | 'updatedAt' | 'name';
  dir?: 'asc' | 'desc';
}

export interface TemplateInput {
  name: string;
  description?: string;
  subject: string;
  body: string;
  from: string;
  fromName?: string;
  replyTo?: string;
  type: EmailType;
}

export function useTemplateList(params: TemplateListParams) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'templates', 'list', params),
    queryFn: ({ signal }) => api.get<OffsetList<Template>>('/templates', { ...params, pageSize: 20 }, signal),
    placeholderData: (previous) => previous,
  });
}

export function useTemplate(templateId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'templates', 'one', templateId),
    queryFn: () => api.get<Template>(`/templates/${encodeURIComponent(templateId!)}`),
    enabled: Boolean(templateId),
  });
}

export const EMAIL_TYPES: { value: EmailType; label: string; help: string }[] = [
  { value: 'MARKETING', label: 'Marketing', help: 'Skips unsubscribed and suppressed contacts; adds an unsubscribe footer and List-Unsubscribe.' },
  { value: 'TRANSACTIONAL', label: 'Transactional', help: 'Receipts, password resets: sent whatever the subscription.' },
  { value: 'HEADLESS', label: 'Headless', help: 'Respects subscriptions like marketing, without the footer.' },
];
