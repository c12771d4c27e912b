import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../api/activity';
import { buildTimeline, type ContactExecution, describeEvent } from './timeline';

const item = (id: string, type: ActivityItem['type'], at: string, extra: Partial<ActivityItem> = {}): ActivityItem => ({ id, type, createdAt: at, contact: null, data: {}, ...extra });
const execution = (id: string, at: string): ContactExecution => ({ id, workflowId: 'w', workflowName: 'Onboarding', status: 'COMPLETED', exitReason: null, startedAt: at, completedAt: at });

describe('contact timeline', () => {
  const items = [
    item('c', 'email.click', '2026-01-01T10:05:00.000Z', { emailId: 'e1', data: { link: 'https://x.test/a' } }),
    item('o', 'email.open', '2026-01-01T10:04:00.000Z', { emailId: 'e1' }),
    item('d', 'email.delivery', '2026-01-01T10:01:00.000Z', { emailId: 'e1' }),
    item('s', 'email.sent', '2026-01-01T10:00:00.000Z', { emailId: 'e1', subject: 'Hi' }),
    item('o2', 'email.open', '2026-01-01T09:00:00.000Z', { emailId: 'older' }),
    item('ev', 'event', '2026-01-01T08:00:00.000Z', { eventName: 'signed-up' }),
  ];

  it('folds delivery, opens and clicks into the sent email, keeps those of an email not loaded', () => {
    const entries = buildTimeline(items, [], true);
    expect(entries.map((e) => (e.kind === 'execution' ? e.execution.id : e.item.id))).toEqual(['s', 'o2', 'ev']);
    expect(entries[0]).toMatchObject({ kind: 'email', outcome: { delivered: true, opened: true, clicked: true, links: ['https://x.test/a'] } });
    expect(entries[1]).toMatchObject({ kind: 'activity' });
  });

  it('places executions by their start, and holds back older ones until every page is loaded', () => {
    const runs = [execution('x-new', '2026-01-01T09:30:00.000Z'), execution('x-old', '2026-01-01T07:00:00.000Z')];
    const partial = buildTimeline(items, runs, false).map((e) => (e.kind === 'execution' ? e.execution.id : e.item.id));
    expect(partial).toEqual(['s', 'x-new', 'o2', 'ev']);
    const all = buildTimeline(items, runs, true).map((e) => (e.kind === 'execution' ? e.execution.id : e.item.id));
    expect(all).toEqual(['s', 'x-new', 'o2', 'ev', 'x-old']);
  });

  it('words consent and segment events, and names other events', () => {
    expect(describeEvent(item('a', 'event', '', { eventName: 'contact.unsubscribed', data: { reason: 'bounce' } }))).toBe('Unsubscribed from marketing email (bounce)');
    expect(describeEvent(item('a', 'event', '', { eventName: 'contact.topic.subscribed', data: { topic: 'news' } }))).toBe('Joined the topic news');
    expect(describeEvent(item('a', 'event', '', { eventName: 'segment.vip-customers.exit' }))).toBe('Left the segment vip-customers');
    expect(describeEvent(item('a', 'event', '', { eventName: 'purchased' }))).toBe('Event purchased');
  });
});
