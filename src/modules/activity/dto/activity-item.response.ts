import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ActivityPage, ActivityStats } from '../activity.service';
import type { UpcomingItem } from '../activity.registry';
import { ACTIVITY_TYPES, activityTypeOf, ActivityType } from '../activity.types';

export class ActivityItem {
  @ApiProperty({ description: 'Identifier (UUID) of the underlying event', type: String })
  id!: string;
  @ApiProperty({ description: 'email.sent, email.delivery, email.open, email.click, email.bounce, email.complaint, email.received, or event (a tracked or other emitted event)', enum: ACTIVITY_TYPES })
  type!: ActivityType;
  @ApiProperty({ description: 'When it happened (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({
    description: 'The contact; null when there is none (or it was deleted)',
    type: 'object',
    nullable: true,
    properties: { id: { type: 'string', description: 'Contact id' }, email: { type: 'string', description: 'Email address' } },
  })
  contact!: { id: string; email: string } | null;
  @ApiPropertyOptional({ description: 'Email (UUID), on email.* activity', type: String })
  emailId?: string;
  @ApiPropertyOptional({ description: 'Campaign (UUID), on email.* activity of a campaign email', type: String })
  campaignId?: string;
  @ApiPropertyOptional({ description: 'Subject of the email, on email.* activity', type: String })
  subject?: string;
  @ApiPropertyOptional({ description: 'Event name, on type event', type: String })
  eventName?: string;
  @ApiProperty({ description: 'The event data as stored (email.* events: emailId, subject, from, templateId, campaignId; email.click adds link, email.bounce bounceType)', type: 'object', additionalProperties: true })
  data!: Record<string, unknown>;
}

/** A cursor list without `total` (the feed never counts). */
export class ActivityPageSchema implements ActivityPage {
  @ApiProperty({ description: 'Activity, newest first', type: () => [ActivityItem] })
  data!: ActivityItem[];
  @ApiProperty({ description: 'Pass as `cursor` to get the next page; null on the last page', type: String, nullable: true })
  cursor!: string | null;
  @ApiProperty({ description: 'Whether another page follows', type: Boolean })
  hasMore!: boolean;
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

/** An upcoming item (UpcomingItem): the fields every provider gives; each adds its own (named in the list's description). */
const upcomingItem = (id: string, name: string, dueAt: string, dueAtNullable = false) => ({
  type: 'object' as const,
  required: ['id', 'dueAt'],
  additionalProperties: true,
  properties: {
    id: { type: 'string', description: id },
    name: { type: 'string', description: name },
    dueAt: { type: 'string', nullable: dueAtNullable, description: dueAt },
  },
});

export class UpcomingSchema {
  @ApiProperty({
    description: 'SCHEDULED campaigns, soonest first; each also carries subject and type',
    type: 'array',
    items: upcomingItem('Campaign (UUID)', 'Campaign name', 'When it sends (ISO 8601)'),
  })
  campaigns!: UpcomingItem[];
  @ApiProperty({
    description: 'WAITING workflow executions, soonest due first; each also carries workflowId, contactId and waitingFor (the awaited event, or null)',
    type: 'array',
    items: upcomingItem('Execution (UUID)', 'Workflow name', "When the wait ends (ISO 8601): a DELAY's end or a WAIT_FOR_EVENT's timeout; null for a wait without timeout (listed last)", true),
  })
  executions!: UpcomingItem[];
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
  if (str(data.subject)) item.subject = str(data.subject);
  if (type === 'event') item.eventName = row.name;
  return item;
}
