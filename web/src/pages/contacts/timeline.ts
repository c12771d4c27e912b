import type { ActivityItem } from '../../api/activity';
import type { components } from '../../api/schema';

export type ContactExecution = components['schemas']['ContactExecutionSchema'];

/** What happened to an email after it was sent, folded into its entry. */
export interface EmailOutcome {
  delivered: boolean;
  opened: boolean;
  clicked: boolean;
  links: string[];
}

export type TimelineEntry =
  | { kind: 'email'; at: string; item: ActivityItem; outcome: EmailOutcome }
  | { kind: 'activity'; at: string; item: ActivityItem }
  | { kind: 'execution'; at: string; execution: ContactExecution };

/** Lifecycle events folded into their email's entry when that entry is shown. */
const FOLDED = new Set(['email.delivery', 'email.open', 'email.click']);

/**
 * One list, newest first: an email's sent entry carries its delivery, opens and clicks (shown on
 * their own only when the sent entry is on a page not loaded yet); workflow executions are placed
 * by their start among the loaded activity (all of them once every page is loaded, so an older
 * execution never shows above activity that is not loaded yet).
 */
export function buildTimeline(items: ActivityItem[], executions: ContactExecution[], allLoaded: boolean): TimelineEntry[] {
  const sent = new Map<string, EmailOutcome>();
  for (const item of items) if (item.type === 'email.sent' && item.emailId) sent.set(item.emailId, { delivered: false, opened: false, clicked: false, links: [] });
  const entries: TimelineEntry[] = [];
  for (const item of items) {
    const outcome = item.emailId ? sent.get(item.emailId) : undefined;
    if (outcome && FOLDED.has(item.type)) {
      if (item.type === 'email.delivery') outcome.delivered = true;
      if (item.type === 'email.open') outcome.opened = true;
      if (item.type === 'email.click') {
        outcome.clicked = true;
        const link = item.data?.link;
        if (typeof link === 'string' && !outcome.links.includes(link)) outcome.links.push(link);
      }
      continue;
    }
    if (item.type === 'email.sent' && outcome) entries.push({ kind: 'email', at: item.createdAt, item, outcome });
    else entries.push({ kind: 'activity', at: item.createdAt, item });
  }
  const oldest = items.length ? items[items.length - 1].createdAt : undefined;
  for (const execution of executions) {
    if (allLoaded || (oldest !== undefined && execution.startedAt >= oldest)) entries.push({ kind: 'execution', at: execution.startedAt, execution });
  }
  // ISO 8601 UTC strings of one format sort as times; the sort is stable for equal times.
  return entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A person's words for an event: subscription, consent and segment changes by name; others by their name. */
export function describeEvent(item: ActivityItem): string {
  const name = item.eventName ?? item.type;
  const data = item.data ?? {};
  const reason = str(data.reason);
  const topic = str(data.topic);
  switch (name) {
    case 'contact.subscribed':
      return 'Subscribed to marketing email';
    case 'contact.unsubscribed':
      return reason ? `Unsubscribed from marketing email (${reason})` : 'Unsubscribed from marketing email';
    case 'contact.topic.subscribed':
      return `Joined the topic ${topic ?? ''}`.trim();
    case 'contact.topic.unsubscribed':
      return `Left the topic ${topic ?? ''}`.trim();
    case 'contact.snoozed':
      return 'Snoozed marketing email';
    case 'contact.confirmed':
      return 'Confirmed the subscription (double opt-in)';
    case 'email.bounce':
      return `Email bounced${str(data.bounceType) ? ` (${str(data.bounceType)})` : ''}`;
    case 'email.complaint':
      return 'Marked an email as spam';
    case 'email.received':
      return 'Sent mail to the project';
    case 'email.delivery':
      return 'Email delivered';
    case 'email.open':
      return 'Opened an email';
    case 'email.click':
      return 'Clicked a link in an email';
    default: {
      const segment = /^segment\.(.+)\.(entry|exit)$/.exec(name);
      if (segment) return `${segment[2] === 'entry' ? 'Entered' : 'Left'} the segment ${segment[1]}`;
      return `Event ${name}`;
    }
  }
}

/** Data keys an entry already says in words (not repeated in its details). */
export const SHOWN_KEYS = new Set(['emailId', 'subject', 'templateId', 'campaignId', 'from', 'reason', 'topic', 'bounceType', 'link']);
