import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data, projectApi } from './client';
import { qk } from './queryKeys';
import type { operations } from './schema';
import type { ImportJobResponse } from './types';

/** One refused row of an import (the document types `errors` only as objects). */
export interface ImportRowError {
  row: number;
  email: string;
  reason: string;
}
export type ImportJob = Omit<ImportJobResponse, 'errors'> & { errors: ImportRowError[] };

export type ContactSort = 'createdAt' | 'email';
export interface ContactListParams {
  search?: string;
  subscribed?: 'true' | 'false';
  /** Double opt-in state; `none`: never asked. */
  confirmation?: 'pending' | 'confirmed' | 'none';
  /** Members of this topic (slug). */
  topic?: string;
  snoozed?: 'true' | 'false';
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
    queryFn: ({ pageParam, signal }) => {
      const { subscribed, snoozed, ...rest } = params;
      const query = { ...rest, subscribed: subscribed && subscribed === 'true', snoozed: snoozed && snoozed === 'true', limit: CONTACTS_PAGE_SIZE, cursor: pageParam };
      return data(api.GET('/contacts', { params: { query }, signal }));
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
    // While a new search or filter loads, the previous rows stay (no flash of "Loading").
    placeholderData: (previous) => previous,
  });
}

export function useContact(contactId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'contacts', 'one', contactId), queryFn: () => data(api.GET('/contacts/{id}', { params: { path: { id: contactId } } })) });
}

/** The project's fields with types and coverage (one scan of its contacts: load it when needed, `enabled`). */
export function useContactFields(enabled = true) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({ queryKey: qk.p(projectId, 'contacts', 'fields'), queryFn: () => data(api.GET('/contacts/fields')), enabled });
}

const finished = (status: string | undefined) => status === 'completed' || status === 'failed';
/** A job's `refetchInterval`: every 500 ms until it completes or fails. */
const untilFinished = (query: { state: { data?: { status: string } } }) => (finished(query.state.data?.status) ? false : 500);

/** An import job, polled every 500 ms until it completes or fails. */
export function useImportJob(jobId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'contacts', 'import', jobId),
    queryFn: async () => (await data(api.GET('/contacts/import/{jobId}', { params: { path: { jobId: jobId! } } }))) as unknown as ImportJob,
    enabled: Boolean(jobId),
    refetchInterval: untilFinished,
  });
}

/** A bulk job, polled every 500 ms until it completes or fails. */
export function useBulkJob(jobId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'contacts', 'bulk', jobId),
    queryFn: () => data(api.GET('/contacts/bulk/{jobId}', { params: { path: { jobId: jobId! } } })),
    enabled: Boolean(jobId),
    refetchInterval: untilFinished,
  });
}

/** A bulk contact export, polled every 500 ms until it completes or fails. */
export function useContactExport(jobId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'contacts', 'export', jobId),
    queryFn: () => data(api.GET('/contacts/export/{jobId}', { params: { path: { jobId: jobId! } } })),
    enabled: Boolean(jobId),
    refetchInterval: untilFinished,
  });
}

export function isJobFinished(job: { status: string } | undefined): boolean {
  return finished(job?.status);
}

/** `mapping`: header → key or null to skip (docs/api.md#import-column-mapping); without it the server derives the keys. */
export function uploadContactsCsv(projectId: string, file: File, mapping?: Record<string, string | null>) {
  const form = new FormData();
  if (mapping) form.append('mapping', JSON.stringify(mapping));
  form.append('file', file);
  // Multipart: openapi-fetch sends FormData as it is (the browser sets the boundary).
  return data(projectApi(projectId).POST('/contacts/import', { body: form as never }));
}

export type BulkOperation = 'subscribe' | 'unsubscribe' | 'delete';

type ConfirmationLocale = NonNullable<NonNullable<operations['ConfirmationEmailController_builtIn']['parameters']['query']>['locale']>;

/** The built-in double opt-in message (Liquid over confirmProject, confirmEmail, confirmUrl) in a language, for previews. */
export function useBuiltInConfirmationEmail(locale: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'double-opt-in', 'built-in-email', locale),
    queryFn: ({ signal }) => data(api.GET('/double-opt-in/built-in-email', { params: { query: { locale: locale as ConfirmationLocale } }, signal })),
  });
}
