import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components, operations } from './schema';

export type CampaignRecipient = components['schemas']['CampaignRecipient'];
export type RecipientStatus = CampaignRecipient['status'];
export type CampaignTimeline = components['schemas']['CampaignTimeline'];
export type RecipientFilter = NonNullable<NonNullable<operations['CampaignResultsController_recipients']['parameters']['query']>['status']>;

/** The filters of the recipients table; each selects exactly the recipients its statistic counts. */
export const RECIPIENT_FILTERS: Array<[RecipientFilter, string]> = [
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['opened', 'Opened'],
  ['clicked', 'Clicked'],
  ['bounced', 'Bounced'],
  ['complained', 'Complained'],
  ['unsubscribed', 'Unsubscribed'],
  ['skipped', 'Skipped'],
  ['failed', 'Failed'],
  ['uncertain', 'Uncertain'],
];

/** A sent campaign's recipients, a cursor list (`fetchNextPage` loads the next 50). */
export function useCampaignRecipients(campaignId: string, params: { status?: RecipientFilter; search?: string }, live: boolean) {
  const api = useApi();
  const projectId = useProjectId();
  return useInfiniteQuery({
    queryKey: qk.p(projectId, 'campaigns', 'one', campaignId, 'recipients', params),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      data(api.GET('/campaigns/{id}/recipients', { params: { path: { id: campaignId }, query: { ...params, limit: 50, cursor: pageParam } }, signal })),
    getNextPageParam: (last) => (last.hasMore ? (last.cursor ?? undefined) : undefined),
    placeholderData: (previous) => previous,
    refetchInterval: live ? 5000 : false,
  });
}

export function useCampaignLinks(campaignId: string, live: boolean) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'campaigns', 'one', campaignId, 'links'),
    queryFn: () => data(api.GET('/campaigns/{id}/links', { params: { path: { id: campaignId } } })),
    refetchInterval: live ? 5000 : false,
  });
}

export function useCampaignTimeline(campaignId: string, interval: 'hour' | 'day', live: boolean) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'campaigns', 'one', campaignId, 'timeline', interval),
    queryFn: () => data(api.GET('/campaigns/{id}/timeline', { params: { path: { id: campaignId }, query: { interval } } })),
    refetchInterval: live ? 5000 : false,
  });
}
