import { useQuery } from '@tanstack/react-query';
import { useApi, useProjectId } from '../lib/project';
import { qk } from './queryKeys';
import type { EmailType, OffsetList } from './types';
import type { ApiFilterTree, FilterTree } from '../pages/segments/filterTree';

export type CampaignStatus = 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED';
export type AudienceType = 'ALL' | 'SEGMENT' | 'FILTERED';
export const CAMPAIGN_STATUSES: CampaignStatus[] = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'];

export interface Campaign {
  id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  type: EmailType;
  status: CampaignStatus;
  audienceType: AudienceType;
  audienceCondition: FilterTree | null;
  segmentId: string | null;
  scheduledFor: string | null;
  totalRecipients: number;
  sentCount: number;
  deliveredCount: number;
  openedCount: number;
  clickedCount: number;
  bouncedCount: number;
  skippedCount: number;
  failedCount: number;
  uncertainCount: number;
  projectId: string;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CampaignInput {
  name: string;
  description?: string;
  subject: string;
  body: string;
  from: string;
  fromName?: string;
  replyTo?: string;
  type: EmailType;
  audienceType: AudienceType;
  segmentId?: string | null;
  audienceCondition?: ApiFilterTree | null;
}

export interface CampaignStats {
  totalRecipients: number;
  sentCount: number;
  deliveredCount: number;
  openedCount: number;
  clickedCount: number;
  bouncedCount: number;
  complainedCount: number;
  unsubscribedCount: number;
  skippedCount: number;
  failedCount: number;
  /** Interrupted during their hand-over: they may or may not have arrived; sent again only by resend-uncertain. */
  uncertainCount: number;
  skipped: Record<string, number>;
  openRate: number;
  clickRate: number;
  bounceRate: number;
}

/** `GET /campaigns/:id/audience-preview`: who would get a DRAFT or SCHEDULED campaign if it were sent now. */
export interface CampaignAudiencePreview {
  totalRecipients: number;
  skippedCount: number;
  skipped: Record<string, number>;
}

export const SKIP_REASONS: Record<string, string> = {
  unsubscribed: 'unsubscribed',
  suppressed: 'on the suppression list (bounced or complained)',
  invalid_email: 'invalid address',
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
    queryFn: ({ signal }) => api.get<OffsetList<Campaign>>('/campaigns', { ...params, pageSize: 20, sort: 'createdAt', dir: 'desc' }, signal),
    placeholderData: (previous) => previous,
    refetchInterval: (q) => (q.state.data?.data.some((c) => c.status === 'SENDING') ? 2000 : false),
  });
}

export function useCampaign(campaignId: string | undefined) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'campaigns', 'one', campaignId),
    queryFn: () => api.get<Campaign>(`/campaigns/${encodeURIComponent(campaignId!)}`),
    enabled: Boolean(campaignId),
    refetchInterval: (q) => (isLive(q.state.data?.status) ? 1000 : false),
  });
}

export function useCampaignAudiencePreview(campaignId: string) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'campaigns', 'one', campaignId, 'audience-preview'),
    queryFn: () => api.get<CampaignAudiencePreview>(`/campaigns/${encodeURIComponent(campaignId)}/audience-preview`),
  });
}

export function useCampaignStats(campaignId: string, status: CampaignStatus) {
  const api = useApi();
  const projectId = useProjectId();
  return useQuery({
    queryKey: qk.p(projectId, 'campaigns', 'one', campaignId, 'stats', status),
    queryFn: () => api.get<CampaignStats>(`/campaigns/${encodeURIComponent(campaignId)}/stats`),
    refetchInterval: isLive(status) ? 1000 : false,
  });
}
