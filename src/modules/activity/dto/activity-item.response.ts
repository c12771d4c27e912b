import { activityTypeOf, ActivityType } from '../activity.types';

export interface ActivityItem {
  id: string;
  type: ActivityType;
  createdAt: string;
  contact: { id: string; email: string } | null;
  emailId?: string;
  campaignId?: string;
  subject?: string;
  eventName?: string;
  data: Record<string, unknown>;
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
