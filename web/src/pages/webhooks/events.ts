/**
 * The event picker's choices: the patterns and names the service emits (docs/integrations.md), and
 * the project's own recorded names (GET /events/names: tracked ones, and emitted ones such as a
 * segment's `segment.<slug>.entry` once it happened). Pure, so it is tested without a DOM.
 */

export interface EventChoice {
  /** The pattern sent in `events` (an exact name, a prefix ending in `.*`, or `*`). */
  value: string;
  /** What a marketer reads beside the checkbox. */
  label: string;
}

export interface EventGroup {
  title: string;
  choices: EventChoice[];
}

export const ALL_EVENTS = '*';

/** The names the service records itself, with words for them. */
const EMAIL_EVENTS: EventChoice[] = [
  { value: 'email.*', label: 'Every email event' },
  { value: 'email.sent', label: 'Sent' },
  { value: 'email.delivery', label: 'Delivered' },
  { value: 'email.open', label: 'Opened' },
  { value: 'email.click', label: 'Link clicked' },
  { value: 'email.bounce', label: 'Bounced' },
  { value: 'email.complaint', label: 'Marked as spam' },
  { value: 'email.received', label: 'Inbound email received' },
];

const CONTACT_EVENTS: EventChoice[] = [
  { value: 'contact.subscribed', label: 'Subscribed' },
  { value: 'contact.unsubscribed', label: 'Unsubscribed' },
  { value: 'contact.topic.subscribed', label: 'Joined a topic' },
  { value: 'contact.topic.unsubscribed', label: 'Left a topic' },
  { value: 'contact.snoozed', label: 'Snoozed' },
];

const SEGMENT_ALL: EventChoice = { value: 'segment.*', label: 'Every segment entry and exit' };

const SEGMENT_NAME = /^segment\.(.+)\.(entry|exit)$/;

/** Names the service emits (tracking them with /v1/track is refused): they are not "your" events. */
export function isEmittedName(name: string): boolean {
  return /^email\./.test(name) || /^contact\.(subscribed|unsubscribed|snoozed|topic\.subscribed|topic\.unsubscribed)$/.test(name) || SEGMENT_NAME.test(name) || name.startsWith('webhook.');
}

/**
 * The picker's groups, in order: everything, email, contacts, segments (the pattern and each
 * segment name the project recorded), then the project's tracked event names (sorted).
 */
export function eventGroups(projectNames: readonly string[]): EventGroup[] {
  const names = [...new Set(projectNames.map((n) => n.trim()).filter(Boolean))].sort((a, b) => a.localeCompare(b));
  const segmentChoices = names
    .filter((n) => SEGMENT_NAME.test(n))
    .map((n) => {
      const [, slug, edge] = SEGMENT_NAME.exec(n)!;
      return { value: n, label: `${edge === 'entry' ? 'Joined' : 'Left'} ${slug}` };
    });
  const tracked = names.filter((n) => !isEmittedName(n)).map((n) => ({ value: n, label: n }));
  return [
    { title: 'Everything', choices: [{ value: ALL_EVENTS, label: 'All events, present and future' }] },
    { title: 'Emails', choices: EMAIL_EVENTS },
    { title: 'Contacts', choices: CONTACT_EVENTS },
    { title: 'Segments', choices: [SEGMENT_ALL, ...segmentChoices] },
    { title: 'Your tracked events', choices: tracked },
  ];
}

/** Every pattern the groups offer (to tell the picker's choices from ones typed by hand). */
export function offeredPatterns(groups: readonly EventGroup[]): Set<string> {
  return new Set(groups.flatMap((g) => g.choices.map((c) => c.value)));
}

/** The patterns typed in the "other events" box: split on commas, spaces and lines, blanks dropped. */
export function parsePatternList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The `events` of a form: checked choices first, then typed ones, each once, in order. */
export function selectedEvents(checked: readonly string[], typed: string): string[] {
  return [...new Set([...checked, ...parsePatternList(typed)])];
}

/**
 * Whether an event name is covered by a pattern, by the contract's rule: `*` matches all, a
 * pattern ending in `.*` matches the names under that prefix, anything else matches itself.
 */
export function patternMatches(pattern: string, name: string): boolean {
  if (pattern === ALL_EVENTS) return true;
  if (pattern.endsWith('.*')) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}

/** The list without the patterns another one in it already covers (`email.open` beside `email.*`). */
export function minimalEvents(events: readonly string[]): string[] {
  const unique = [...new Set(events)];
  return unique.filter((e) => !unique.some((p) => p !== e && p.endsWith('*') && patternMatches(p, e.endsWith('.*') ? e.slice(0, -1) : e)));
}

/** An endpoint's `events` in words, short enough for a table cell. */
export function describeEvents(events: readonly string[]): string {
  if (events.includes(ALL_EVENTS)) return 'All events';
  if (events.length <= 3) return events.join(', ');
  return `${events.slice(0, 2).join(', ')} and ${events.length - 2} more`;
}
