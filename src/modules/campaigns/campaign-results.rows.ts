/**
 * What a recipient of a sent campaign can be filtered by. Each value selects exactly the
 * recipients its stats counter counts (docs/campaign-results.md): `opened` = `openedCount`, …
 */
export const RECIPIENT_FILTERS = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'unsubscribed', 'skipped', 'failed', 'uncertain'] as const;
export type RecipientFilter = (typeof RECIPIENT_FILTERS)[number];

/** A recipient's one status: the furthest it got (complained > bounced > unsubscribed > clicked > opened > delivered > sent), else its email's state. */
export const RECIPIENT_STATUSES = [...RECIPIENT_FILTERS, 'queued', 'sending'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const TIMELINE_INTERVALS = ['hour', 'day'] as const;
export type TimelineInterval = (typeof TIMELINE_INTERVALS)[number];
