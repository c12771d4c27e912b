import { renderRecipientPage, snoozeEnd } from './recipient-pages';

describe('snoozeEnd', () => {
  const now = new Date('2026-01-31T10:00:00.000Z');
  it('adds 2 weeks, or calendar months', () => {
    expect(snoozeEnd('2w', now).toISOString()).toBe('2026-02-14T10:00:00.000Z');
    expect(snoozeEnd('1m', now).toISOString()).toBe('2026-03-03T10:00:00.000Z');
    expect(snoozeEnd('3m', new Date('2026-01-15T00:00:00.000Z')).toISOString()).toBe('2026-04-15T00:00:00.000Z');
  });
});

describe('the preference centre page', () => {
  const base = { kind: 'manage' as const, locale: 'en' as const, email: 'a@example.net', projectName: 'Acme <News>', subscribed: true };

  it('escapes topic names, labels every control and needs no script', () => {
    const html = renderRecipientPage({
      ...base,
      preferences: { topics: [{ slug: 'x', name: '<b>X</b>', description: null, member: true }], snoozedUntil: null },
    });
    expect(html).toContain('<label for="topic-0">&lt;b&gt;X&lt;/b&gt;</label>');
    expect(html).toContain('Acme &lt;News&gt;');
    expect(html).not.toContain('<script');
    const ids = [...html.matchAll(/<input type="(?:checkbox|radio)" id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBe(5);
    for (const id of ids) expect(html).toContain(`<label for="${id}">`);
  });

  it('offers to keep a running snooze, and only a subscribe button once unsubscribed', () => {
    const snoozed = renderRecipientPage({ ...base, preferences: { topics: [], snoozedUntil: new Date(Date.now() + 86_400_000) } });
    expect(snoozed).toMatch(/name="snooze" value="" checked><label for="snooze-keep">Emails are paused until/);
    expect(snoozed).not.toContain('<legend>Topics</legend>');
    const off = renderRecipientPage({ ...base, subscribed: false });
    expect(off).toContain('name="action" value="subscribe"');
    expect(off).not.toContain('name="snooze"');
  });
});
