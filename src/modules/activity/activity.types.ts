/** Activity types (docs/decisions.md#activity-and-analytics): the email lifecycle names as stored, and `event` for tracked events. */
export const EMAIL_ACTIVITY_TYPES = ['email.sent', 'email.delivery', 'email.open', 'email.click', 'email.bounce', 'email.complaint', 'email.received'] as const;
export const ACTIVITY_TYPES = [...EMAIL_ACTIVITY_TYPES, 'event'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const activityTypeOf = (name: string): ActivityType =>
  (EMAIL_ACTIVITY_TYPES as readonly string[]).includes(name) ? (name as ActivityType) : 'event';

/** The stats and timeseries counters and the event names they sum. */
export const METRIC_NAMES = {
  sent: 'email.sent',
  delivered: 'email.delivery',
  opened: 'email.open',
  clicked: 'email.click',
  bounced: 'email.bounce',
  complained: 'email.complaint',
  received: 'email.received',
} as const;

/** `/activity/stats`: each counter of `METRIC_NAMES`, and all events. */
export type ActivityStats = Record<keyof typeof METRIC_NAMES | 'events', number>;
