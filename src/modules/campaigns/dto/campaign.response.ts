import { ApiProperty, OmitType, PickType } from '@nestjs/swagger';
import { FilterTreeSchema } from '../../filters';
import { TemplatePage, TemplateResponse, TEMPLATE_TYPES, type TemplateType } from '../../templates';
import { AbTestSettingsResponse, AbTestStats } from './ab-test.dto';
import { AUDIENCE_TYPES, CAMPAIGN_STATUSES, type AudienceType, type Campaign, type CampaignDelivery, type CampaignStatus } from '../entities/campaign.entity';
import { DELIVERY_PROPERTY } from '../engine/delivery-settings';

const STATUS = 'DRAFT, SCHEDULED (waits for scheduledFor), SENDING, SENT or CANCELLED';

/** The message fields are a template's (same names and meaning), the rest is the audience and the send. */
export class CampaignResponse extends PickType(TemplateResponse, ['id', 'name', 'description', 'subject', 'body', 'from', 'fromName', 'replyTo', 'projectId', 'createdAt', 'updatedAt'] as const) {
  @ApiProperty({ description: 'TRANSACTIONAL (every contact of the audience), MARKETING (subscribed contacts; unsubscribe footer) or HEADLESS (subscribed contacts, no footer)', enum: TEMPLATE_TYPES })
  type!: TemplateType;
  @ApiProperty({ description: STATUS, enum: CAMPAIGN_STATUSES })
  status!: CampaignStatus;
  @ApiProperty({ description: 'ALL contacts, a SEGMENT (segmentId) or FILTERED by audienceCondition', enum: AUDIENCE_TYPES })
  audienceType!: AudienceType;
  @ApiProperty({ description: 'Filter tree of a FILTERED audience; null otherwise', type: () => FilterTreeSchema, nullable: true })
  audienceCondition!: Record<string, unknown> | null;
  @ApiProperty({ description: 'Segment (UUID) of a SEGMENT audience; null otherwise', type: String, nullable: true })
  segmentId!: string | null;
  @ApiProperty({ description: 'Topic (UUID) the audience is narrowed to; null for none', type: String, nullable: true })
  topicId!: string | null;
  @ApiProperty({ description: 'When a SCHEDULED campaign sends (ISO 8601); null when not scheduled', type: String, nullable: true })
  scheduledFor!: string | null;
  @ApiProperty({ description: 'Contacts in the audience, fixed when sending starts (skipped ones included); 0 in DRAFT and SCHEDULED', type: 'integer' })
  totalRecipients!: number;
  @ApiProperty({ description: 'Emails handed to the transport', type: 'integer' })
  sentCount!: number;
  @ApiProperty({ description: 'Emails delivered', type: 'integer' })
  deliveredCount!: number;
  @ApiProperty({ description: 'Recipients who opened', type: 'integer' })
  openedCount!: number;
  @ApiProperty({ description: 'Recipients who clicked', type: 'integer' })
  clickedCount!: number;
  @ApiProperty({ description: 'Emails that bounced', type: 'integer' })
  bouncedCount!: number;
  @ApiProperty({ description: 'Audience contacts not sent to (unsubscribed, suppressed, invalid address, render error, cancelled); see GET /campaigns/:id/stats', type: 'integer' })
  skippedCount!: number;
  @ApiProperty({ description: 'Emails that failed for good (retries exhausted, a message that could not be built or was too big)', type: 'integer' })
  failedCount!: number;
  @ApiProperty({
    description: 'Emails interrupted during their hand-over to the transport (a crash or an outage): they may or may not have arrived, and are not sent again unless POST /campaigns/:id/resend-uncertain asks',
    type: 'integer',
  })
  uncertainCount!: number;
  @ApiProperty({ description: 'When sending started (ISO 8601); null before', type: String, nullable: true })
  sentAt!: string | null;
  @ApiProperty({ description: 'The A/B test (testPercent and metric with their defaults applied); null for a plain campaign', type: () => AbTestSettingsResponse, nullable: true })
  abTest!: AbTestSettingsResponse | null;
  @ApiProperty({ description: 'Waves and window (docs/delivery-control.md); null: all at once', ...DELIVERY_PROPERTY })
  delivery!: CampaignDelivery | null;
  @ApiProperty({ description: '"recipient" when each contact gets it at localScheduledFor in its own time zone; null otherwise', type: String, enum: ['recipient'], nullable: true })
  timezone!: 'recipient' | null;
  @ApiProperty({ description: 'With timezone "recipient": the wall-clock time (2026-12-01T09:00:00); scheduledFor is then the first zone\'s moment', type: String, nullable: true })
  localScheduledFor!: string | null;
  @ApiProperty({ description: 'With timezone "recipient": the zone of contacts without a valid data.timezone', type: String, nullable: true })
  fallbackTimezone!: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The recipient counters a campaign response and its stats both show. */
export type CampaignCounters = Pick<
  Campaign,
  'totalRecipients' | 'sentCount' | 'deliveredCount' | 'openedCount' | 'clickedCount' | 'bouncedCount' | 'skippedCount' | 'failedCount' | 'uncertainCount'
>;

export function countersOf(c: CampaignCounters): CampaignCounters {
  const { totalRecipients, sentCount, deliveredCount, openedCount, clickedCount, bouncedCount, skippedCount, failedCount, uncertainCount } = c;
  return { totalRecipients, sentCount, deliveredCount, openedCount, clickedCount, bouncedCount, skippedCount, failedCount, uncertainCount };
}

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
    topicId: c.topicId,
    scheduledFor: iso(c.scheduledFor),
    ...countersOf(c),
    projectId: c.projectId,
    sentAt: iso(c.sentAt),
    abTest: c.abTest,
    delivery: c.delivery ?? null,
    timezone: c.localScheduledFor ? 'recipient' : null,
    localScheduledFor: c.localScheduledFor ?? null,
    fallbackTimezone: c.fallbackTimezone ?? null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** The offset-list fields, as on every offset list, around campaigns. */
export class CampaignPage extends OmitType(TemplatePage, ['data'] as const) {
  @ApiProperty({ description: 'Campaigns of this page', type: () => [CampaignResponse] })
  data!: CampaignResponse[];
}

/** The cursor-list fields, as on every cursor list, around campaigns (`GET /campaigns?limit&cursor`). */
export class CampaignCursorPage {
  @ApiProperty({ description: 'Campaigns of this page', type: () => [CampaignResponse] })
  data!: CampaignResponse[];
  @ApiProperty({ description: 'Pass as `cursor` to get the next page; null on the last page', type: String, nullable: true })
  cursor!: string | null;
  @ApiProperty({ description: 'Whether another page follows', type: Boolean })
  hasMore!: boolean;
  @ApiProperty({ description: 'Campaigns matching the filters, counted on the first page only (0 on later pages)', type: 'integer' })
  total!: number;
}

export class CampaignSendSummary extends PickType(CampaignResponse, ['id', 'name', 'scheduledFor'] as const) {
  @ApiProperty({ description: 'SENDING (sending now) or SCHEDULED (sends at scheduledFor)', enum: CAMPAIGN_STATUSES })
  status!: CampaignStatus;
}

export class CampaignSendResponse {
  @ApiProperty({ type: Boolean, enum: [true] })
  success!: true;
  @ApiProperty({ description: 'The campaign after the request', type: () => CampaignSendSummary })
  data!: CampaignSendSummary;
  @ApiProperty({ description: "'Campaign is being sent' or 'Campaign scheduled for <ISO 8601>'", type: String })
  message!: string;
}

export class ResendUncertainResponse {
  @ApiProperty({ type: Boolean, enum: [true] })
  success!: true;
  @ApiProperty({ description: "The campaign's uncertain emails queued to be sent again (0 when there were none)", type: 'integer' })
  requeued!: number;
}

export class CampaignTestResponse {
  @ApiProperty({ type: Boolean, enum: [true] })
  success!: true;
  @ApiProperty({ description: 'The test email (UUID); it carries `X-Test: true`, a `[Test] ` subject prefix, and counts in no statistic', type: String })
  emailId!: string;
}

/**
 * Counts are unique recipients; rates are fractions (0 to 1) of deliveredCount, 0 when nothing was
 * delivered. A DRAFT or SCHEDULED campaign has no fixed audience yet: every count is 0.
 */
export class CampaignStats extends PickType(CampaignResponse, [
  'totalRecipients',
  'sentCount',
  'deliveredCount',
  'openedCount',
  'clickedCount',
  'bouncedCount',
  'skippedCount',
  'failedCount',
  'uncertainCount',
] as const) {
  @ApiProperty({ description: 'Recipients who marked the email as spam', type: 'integer' })
  complainedCount!: number;
  @ApiProperty({
    description:
      "The share (0 to 1) of uncertain emails that usually had arrived all the same, measured on this deployment's own hand-overs over the last 30 days (the part of each email's at-most-once window after the transport accepted it); null before any was measured. POST /campaigns/:id/resend-uncertain sends about that share of uncertainCount twice",
    type: Number,
    nullable: true,
  })
  uncertainArrivedShare!: number | null;
  @ApiProperty({ description: 'Recipients who unsubscribed after their email left', type: 'integer' })
  unsubscribedCount!: number;
  @ApiProperty({
    description: 'skippedCount by reason: unsubscribed, suppressed, erased (an erased contact created again that has not subscribed itself since), invalid_email, render_error, cancelled (not yet sent when the campaign was cancelled)',
    type: 'object',
    additionalProperties: { type: 'integer' },
  })
  skipped!: Record<string, number>;
  @ApiProperty({ description: 'openedCount / deliveredCount', type: Number })
  openRate!: number;
  @ApiProperty({ description: 'clickedCount / deliveredCount', type: Number })
  clickRate!: number;
  @ApiProperty({ description: 'bouncedCount / deliveredCount', type: Number })
  bounceRate!: number;
  @ApiProperty({ description: 'Per-variant results of an A/B test with its phase and winner; null for a plain campaign and before sending starts', type: () => AbTestStats, nullable: true })
  abTest!: AbTestStats | null;
  @ApiProperty({ description: 'SENDING: contacts of the fixed audience not written yet (waiting for their zone, wave or window); 0 otherwise', type: 'integer' })
  waiting!: number;
  @ApiProperty({ description: 'SENDING: when the next batch may be written (ISO 8601) while the release schedule waits (zone, wave or window); null otherwise (a SCHEDULED campaign starts at scheduledFor)', type: String, nullable: true })
  nextBatchAt!: string | null;
}

/** `GET /campaigns/:id/audience-preview`: the audience if sending started now (nothing is fixed or written). */
export class CampaignAudiencePreview extends PickType(CampaignStats, ['totalRecipients', 'skippedCount'] as const) {
  @ApiProperty({ description: 'skippedCount by reason: unsubscribed, suppressed, erased, invalid_email', type: 'object', additionalProperties: { type: 'integer' } })
  skipped!: Partial<Record<string, number>>;
}
