import { describe, expect, it } from 'vitest';
import { describeEvents, minimalEvents, eventGroups, isEmittedName, offeredPatterns, parsePatternList, patternMatches, selectedEvents } from './events';

describe('webhook event picker', () => {
  it('offers the emitted names and patterns, the recorded segment names, then the tracked ones', () => {
    const groups = eventGroups(['purchase', 'email.open', 'segment.vip.entry', 'segment.vip.exit', ' signup ', 'purchase', '']);
    expect(groups.map((g) => g.title)).toEqual(['Everything', 'Emails', 'Contacts', 'Segments', 'Your tracked events']);
    const values = (title: string) => groups.find((g) => g.title === title)!.choices.map((c) => c.value);
    expect(values('Everything')).toEqual(['*']);
    expect(values('Emails')).toEqual(['email.*', 'email.sent', 'email.delivery', 'email.open', 'email.click', 'email.bounce', 'email.complaint', 'email.received']);
    expect(values('Contacts')).toEqual(['contact.subscribed', 'contact.unsubscribed', 'contact.topic.subscribed', 'contact.topic.unsubscribed', 'contact.snoozed']);
    expect(values('Segments')).toEqual(['segment.*', 'segment.vip.entry', 'segment.vip.exit']);
    expect(groups[3].choices[1].label).toBe('Joined vip');
    expect(values('Your tracked events')).toEqual(['purchase', 'signup']);
    expect(offeredPatterns(groups).has('email.open')).toBe(true);
    expect(offeredPatterns(groups).has('order.paid')).toBe(false);
  });

  it('tells emitted names from tracked ones', () => {
    expect(['email.sent', 'contact.unsubscribed', 'contact.topic.subscribed', 'contact.snoozed', 'segment.a-b.exit', 'webhook.test'].every(isEmittedName)).toBe(true);
    expect(['purchase', 'contact.created', 'segment.entry', 'emails'].some(isEmittedName)).toBe(false);
  });

  it('reads typed patterns and merges them with the checked ones, each once', () => {
    expect(parsePatternList(' order.paid, order.*\nrefund  ')).toEqual(['order.paid', 'order.*', 'refund']);
    expect(parsePatternList('   ')).toEqual([]);
    expect(selectedEvents(['email.*', 'purchase'], 'purchase, refund')).toEqual(['email.*', 'purchase', 'refund']);
  });

  it('matches names as the service does', () => {
    expect(patternMatches('*', 'anything')).toBe(true);
    expect(patternMatches('email.*', 'email.bounce')).toBe(true);
    expect(patternMatches('email.*', 'emails.x')).toBe(false);
    expect(patternMatches('purchase', 'purchase')).toBe(true);
    expect(patternMatches('purchase', 'purchases')).toBe(false);
  });

  it('drops what a wider pattern in the list already covers', () => {
    expect(minimalEvents(['email.open', 'email.*', 'purchase', 'purchase'])).toEqual(['email.*', 'purchase']);
    expect(minimalEvents(['email.*', 'segment.vip.entry', '*'])).toEqual(['*']);
    expect(minimalEvents(['order.*', 'order.paid.*', 'order.paid.late'])).toEqual(['order.*']);
  });

  it('says which events an endpoint receives in a few words', () => {
    expect(describeEvents(['email.*', '*'])).toBe('All events');
    expect(describeEvents(['email.bounce', 'purchase'])).toBe('email.bounce, purchase');
    expect(describeEvents(['a', 'b', 'c', 'd', 'e'])).toBe('a, b and 3 more');
  });
});
