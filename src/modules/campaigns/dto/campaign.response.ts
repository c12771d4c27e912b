import type { TemplateType } from '../../templates/entities/template.entity';
import type { AudienceType, Campaign, CampaignStatus } from '../entities/campaign.entity';

export interface CampaignResponse {
  id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  type: TemplateType;
  status: CampaignStatus;
  audienceType: AudienceType;
  audienceCondition: Record<string, unknown> | null;
  segmentId: string | null;
  scheduledFor: string | null;
  totalRecipients: number;
  sentCount: number;
  deliveredCount: number;
  openedCount: number;
  clickedCount: number;
  bouncedCount: number;
  skippedCount: number;
  projectId: string;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toCampaignResponse(c: Campaign): CampaignResponse {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    subject: c.subject,
    body: c.body,
    from: c.fromAddress,
    fromName: c.fromName,
    replyTo: c.replyTo,
    type: c.type,
    status: c.status,
    audienceType: c.audienceType,
    audienceCondition: c.audienceCondition,
    segmentId: c.segmentId,
    scheduledFor: iso(c.scheduledFor),
    totalRecipients: c.totalRecipients,
    sentCount: c.sentCount,
    deliveredCount: c.deliveredCount,
    openedCount: c.openedCount,
    clickedCount: c.clickedCount,
    bouncedCount: c.bouncedCount,
    skippedCount: c.skippedCount,
    projectId: c.projectId,
    sentAt: iso(c.sentAt),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export interface CampaignPage {
  data: CampaignResponse[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface CampaignSendResponse {
  success: true;
  data: { id: string; name: string; status: CampaignStatus; scheduledFor: string | null };
  message: string;
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
  skipped: Record<string, number>;
  openRate: number;
  clickRate: number;
  bounceRate: number;
}
