import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { apiRequest } from './client';
import { qk } from './queryKeys';
import type { BulkJob, Contact, ContactEvent, CursorList, FieldDescriptor, ImportJob } from './types';

export type ContactSort = 'createdAt' | 'email';
export interface ContactListParams {
  search?: string;
  subscribed?: 'true' | 'false';
  sort?: ContactSort;
  dir?: 'asc' | 'desc';
}

export const CONTACTS_PAGE_SIZE = 50;

/** The contact list, page after page (cursor list; `total` comes with the first page). */
export function useContactList(params: ContactListParams) {
  const api = useApi();
  const projectId = useProjectId();
  return useInfiniteQuery({
    queryKey: qk.p(projectId, 'contacts', 'list', params),
    queryFn: ({ pageParam, signal }) => api.get<CursorList<Contact>>('/contacts', { ...params, limit: CONTACTS_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
    // While a new search or filter loads, the previous rows stay (no flash of "Loading").
    placeholderData: (previous) => previous,
  });
}

export function useContact(contactId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'contacts', 'one', contactId), queryFn: () => api.get<Contact>(`/contacts/${encodeURIComponent(contactId)}`) });
}

/** A contact's events, newest first, older pages on demand. */
export function useContactEvents(contactId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useInfiniteQuery({
    queryKey: qk.p(projectId, 'contacts', 'events', contactId),
    queryFn: ({ pageParam, signal }) => api.get<CursorList<ContactEvent>>(`/events/contact/${encodeURIComponent(contactId)}`, { limit: 25, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
  });
}

export function useContactFields() {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'contacts', 'fields'), queryFn: () => api.get<{ fields: FieldDescriptor[] }>('/contacts/fields') });
}

const finished = (status: string | undefined) => status === 'completed' || status === 'failed';

/** An import job, polled every 500 ms until it completes or fails. */
export function useImportJob(jobId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'contacts', 'import', jobId),
    queryFn: () => api.get<ImportJob>(`/contacts/import/${encodeURIComponent(jobId!)}`),
    enabled: Boolean(jobId),
    refetchInterval: (query) => (finished(query.state.data?.status) ? false : 500),
  });
}

/** A bulk job, polled every 500 ms until it completes or fails. */
export function useBulkJob(jobId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'contacts', 'bulk', jobId),
    queryFn: () => api.get<BulkJob>(`/contacts/bulk/${encodeURIComponent(jobId!)}`),
    enabled: Boolean(jobId),
    refetchInterval: (query) => (finished(query.state.data?.status) ? false : 500),
  });
}

export function isJobFinished(job: { status: string } | undefined): boolean {
  return finished(job?.status);
}

export function uploadContactsCsv(projectId: string, file: File) {
  const form = new FormData();
  form.append('file', file);
  return apiRequest<{ jobId: string; status: string }>('/contacts/import', { method: 'POST', body: form, projectId });
}

export type BulkOperation = 'subscribe' | 'unsubscribe' | 'delete';
