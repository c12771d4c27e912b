import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { data } from './client';
import { qk } from './queryKeys';
import type { components } from './schema';

export type CampaignStatus = Campaign['status'];
export type AudienceType = Campaign['audienceType'];
export const CAMPAIGN_STATUSES: CampaignStatus[] = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'];

export type Campaign = components['schemas']['CampaignResponse'];

/** What a campaign is created and replaced (PUT) with. */
export type CampaignInput = components['schemas']['CreateCampaignDto'];

export type CampaignStats = components['schemas']['CampaignStats'];
/** `GET /campaigns/:id/audience-preview`: who would get a DRAFT or SCHEDULED campaign if it were sent now. */
export type CampaignAudiencePreview = components['schemas']['CampaignAudiencePreview'];

export const SKIP_REASONS: Record<string, string> = {
  unsubscribed: 'unsubscribed',
  suppressed: 'on the suppression list (bounced or complained)',
  invalid_email: 'invalid address',
  erased: 'erased at their request (held back until they subscribe again themselves)',
  render_error: 'the body could not be rendered for them',
  cancelled: 'not sent: the campaign was cancelled',
};

/** Sending progresses by itself: these statuses are polled every second. */
export const isLive = (status: CampaignStatus | undefined) => status === 'SENDING' || status === 'SCHEDULED';

export function useCampaignList(params: { page: number; status?: CampaignStatus | ''; search?: string }) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'campaigns', 'list', params),
    // Asked by page, the list answers its offset form (CampaignPage), not the cursor one.
    queryFn: async ({ signal }) =>
      (await data(api.GET('/campaigns', { params: { query: { ...params, status: params.status || undefined, pageSize: 20, sort: 'createdAt', dir: 'desc' } }, signal }))) as components['schemas']['CampaignPage'],
    placeholderData: (previous) => previous,
    refetchInterval: (q) => (q.state.data?.data.some((c) => c.status === 'SENDING') ? 2000 : false),
  });
}

export function useCampaign(campaignId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'campaigns', 'one', campaignId),
    queryFn: () => data(api.GET('/campaigns/{id}', { params: { path: { id: campaignId! } } })),
    enabled: Boolean(campaignId),
    refetchInterval: (q) => (isLive(q.state.data?.status) ? 1000 : false),
  });
}

export function useCampaignAudiencePreview(campaignId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'campaigns', 'one', campaignId, 'audience-preview'),
    queryFn: () => data(api.GET('/campaigns/{id}/audience-preview', { params: { path: { id: campaignId } } })),
  });
}

export function useCampaignStats(campaignId: string, status: CampaignStatus) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'campaigns', 'one', campaignId, 'stats', status),
    queryFn: () => data(api.GET('/campaigns/{id}/stats', { params: { path: { id: campaignId } } })),
    refetchInterval: isLive(status) ? 1000 : false,
  });
}
