import { useInfiniteQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

export type AuditEntry = components['schemas']['AuditEntryResponse'];
export type AuditAction = AuditEntry['action'];

/** What each action reads as; a `Record` over the API's actions, so a new one cannot be left unnamed. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'project.keys_regenerated': 'API keys regenerated',
  'project.settings_updated': 'Settings changed',
  'member.added': 'Member added',
  'member.removed': 'Member removed',
  'member.role_changed': 'Member role changed',
  'domain.created': 'Domain added',
  'domain.deleted': 'Domain deleted',
  'webhook.created': 'Webhook created',
  'webhook.updated': 'Webhook changed',
  'webhook.deleted': 'Webhook deleted',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'contact.exported': 'Contact exported',
  'contacts.exported': 'Contacts exported',
  'contact.erased': 'Contact erased',
  'campaign.sent': 'Campaign sent',
  'campaign.cancelled': 'Campaign cancelled',
};

/** The log's filters as the API takes them (ISO instants for the dates). */
export interface AuditFilters {
  action?: AuditAction;
  actorId?: string;
  from?: string;
  to?: string;
}

/** The project's audit log, newest first, a cursor page at a time. */
export function useAuditLog(filters: AuditFilters) {
  const api = useApi();
  const projectId = useProjectId();
  return useInfiniteQuery({
    queryKey: qk.p(projectId, 'audit-log', filters),
    queryFn: ({ pageParam, signal }) => data(api.GET('/audit-log', { params: { query: { ...filters, limit: 50, cursor: pageParam } }, signal })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
  });
}
