import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import type { UpcomingCampaign } from '../activity.registry';
import { ACTIVITY_TYPES, activityTypeOf, type ActivityStats, ActivityType } from '../activity.types';

/** `{id, email}` of a contact, or null. */
const CONTACT_SCHEMA = {
  type: 'object',
  nullable: true,
  properties: { id: { type: 'string', description: 'Contact id' }, email: { type: 'string', description: 'Email address' } },
} as const;

export class ActivityItem {
  @ApiProperty({ description: 'Identifier (UUID) of the underlying event', type: String })
  id!: string;
  @ApiProperty({ description: 'email.sent, email.delivery, email.open, email.click, email.bounce, email.complaint, email.received, or event (a tracked or other emitted event)', enum: ACTIVITY_TYPES })
  type!: ActivityType;
  @ApiProperty({ description: 'When it happened (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'The contact; null when there is none (or it was deleted)', ...CONTACT_SCHEMA })
  contact!: { id: string; email: string } | null;
  @ApiPropertyOptional({ description: 'Email (UUID), on email.* activity', type: String })
  emailId?: string;
  @ApiPropertyOptional({ description: 'Campaign (UUID), on email.* activity of a campaign email', type: String })
  campaignId?: string;
  @ApiPropertyOptional({ description: 'Name of that campaign (absent once it is deleted)', type: String })
  campaignName?: string;
  @ApiPropertyOptional({ description: 'Template (UUID) the email was made from, on email.* activity', type: String })
  templateId?: string;
  @ApiPropertyOptional({ description: 'Name of that template (absent once it is deleted)', type: String })
  templateName?: string;
  @ApiPropertyOptional({ description: 'Subject of the email, on email.* activity', type: String })
  subject?: string;
  @ApiPropertyOptional({ description: 'Event name, on type event', type: String })
  eventName?: string;
  @ApiProperty({ description: 'The event data as stored (email.* events: emailId, subject, from, templateId, campaignId; email.click adds link, email.bounce bounceType)', type: 'object', additionalProperties: true })
  data!: Record<string, unknown>;
}

export class ActivityStatsSchema implements ActivityStats {
  @ApiProperty({ description: 'Emails sent (email.sent) in the range', type: 'integer' })
  sent!: number;
  @ApiProperty({ description: 'Deliveries (email.delivery)', type: 'integer' })
  delivered!: number;
  @ApiProperty({ description: 'Opens (email.open)', type: 'integer' })
  opened!: number;
  @ApiProperty({ description: 'Clicks (email.click)', type: 'integer' })
  clicked!: number;
  @ApiProperty({ description: 'Bounces (email.bounce)', type: 'integer' })
  bounced!: number;
  @ApiProperty({ description: 'Spam complaints (email.complaint)', type: 'integer' })
  complained!: number;
  @ApiProperty({ description: 'Inbound emails (email.received)', type: 'integer' })
  received!: number;
  @ApiProperty({ description: 'Every other event (tracked and emitted)', type: 'integer' })
  events!: number;
}

export class UpcomingCampaignSchema implements UpcomingCampaign {
  @ApiProperty({ description: 'Campaign (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Campaign name', type: String })
  name!: string;
  @ApiProperty({ description: 'Subject (Liquid source)', type: String })
  subject!: string;
  @ApiProperty({ description: 'When it sends (ISO 8601)', type: String })
  scheduledFor!: string;
}

export class UpcomingExecutionSchema {
  @ApiProperty({ description: 'Execution (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Workflow (UUID)', type: String })
  workflowId!: string;
  @ApiProperty({ description: 'Workflow name', type: String })
  workflowName!: string;
  @ApiProperty({ description: 'The contact the execution runs for; null if it no longer exists', ...CONTACT_SCHEMA })
  contact!: { id: string; email: string } | null;
  @ApiProperty({ description: "When the wait ends (ISO 8601): a DELAY's end or a WAIT_FOR_EVENT's timeout; null for a wait without timeout (listed last)", type: String, nullable: true })
  dueAt!: string | null;
}

export class ContactExecutionSchema extends PickType(UpcomingExecutionSchema, ['id', 'workflowId', 'workflowName'] as const) {
  @ApiProperty({ description: 'RUNNING, WAITING, COMPLETED, EXITED, FAILED or CANCELLED', type: String })
  status!: string;
  @ApiProperty({ description: 'Why it exited or failed', type: String, nullable: true })
  exitReason!: string | null;
  @ApiProperty({ description: 'When it started (ISO 8601)', type: String })
  startedAt!: string;
  @ApiProperty({ description: 'When it ended (ISO 8601); null while active', type: String, nullable: true })
  completedAt!: string | null;
}

export class ContactExecutionsSchema {
  @ApiProperty({ description: "The contact's workflow executions, newest first (at most 100)", type: () => [ContactExecutionSchema] })
  data!: ContactExecutionSchema[];
}

export class UpcomingSchema {
  @ApiProperty({ description: 'SCHEDULED campaigns, soonest first (at most 100)', type: () => [UpcomingCampaignSchema] })
  campaigns!: UpcomingCampaignSchema[];
  @ApiProperty({ description: 'WAITING workflow executions, soonest due first (at most 100)', type: () => [UpcomingExecutionSchema] })
  executions!: UpcomingExecutionSchema[];
}

export interface ActivityRow {
  id: string;
  name: string;
  contact_id: string | null;
  contact_email: string | null;
  data: Record<string, unknown> | null;
  created_at: Date | string;
  created_key: string;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function toActivityItem(row: ActivityRow): ActivityItem {
  const data = row.data ?? {};
  const type = activityTypeOf(row.name);
  const item: ActivityItem = {
    id: row.id,
    type,
    createdAt: new Date(row.created_at).toISOString(),
    contact: row.contact_id && row.contact_email ? { id: row.contact_id, email: row.contact_email } : null,
    data,
  };
  if (str(data.emailId)) item.emailId = str(data.emailId);
  if (str(data.campaignId)) item.campaignId = str(data.campaignId);
  if (str(data.templateId)) item.templateId = str(data.templateId);
  if (str(data.subject)) item.subject = str(data.subject);
  if (type === 'event') item.eventName = row.name;
  return item;
}
