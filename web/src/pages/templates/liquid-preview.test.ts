import { describe, expect, it } from 'vitest';
import { checkLiquid, oneOffData, previewVariables, renderPreview } from './liquid-preview';

describe('template preview', () => {
  it('renders like the server: nested and bracket lookups, ?? and escaping', () => {
    const vars = previewVariables({ firstName: 'Ada', profile: { tier: 'gold' }, 'first name': 'bob', nothing: null, html: '<b>x</b>' }, 'ada@example.com');
    const out = renderPreview('Hi {{firstName}}\n!', '<p>{{profile.tier}}/{{data["first name"] | capitalize}}/{{nothing ?? "fb"}}/{{missing ?? "m"}}/{{html}}/{{html | raw}}/{{email}}</p>', vars);
    expect(out).toEqual({ ok: true, subject: 'Hi Ada !', html: '<p>gold/Bob/fb/m/&lt;b&gt;x&lt;/b&gt;/<b>x</b>/ada@example.com</p>' });
  });

  it('names the field and line of a syntax error', () => {
    const body = renderPreview('ok', 'line one\nline two {% if x %}\nthree', {});
    expect(body).toEqual({ ok: false, problem: { field: 'body', line: 2, message: expect.stringContaining('not closed') } });
    const subject = renderPreview('{{ a | nosuchfilter }}', 'fine', {});
    expect(subject).toMatchObject({ ok: false, problem: { field: 'subject', line: 1 } });
  });

  it('checks one field without rendering', () => {
    expect(checkLiquid('body', '{{ a }}')).toBeNull();
    expect(checkLiquid('body', '\n\n{% for x in y %}')).toMatchObject({ field: 'body', line: 3 });
  });

  it('refuses file tags, as the server does', () => {
    expect(renderPreview('s', '{% include "x" %}', {})).toMatchObject({ ok: false, problem: { field: 'body' } });
  });

  it('sends sample data as one-off values that are not stored on the contact', () => {
    expect(oneOffData({ plan: 'pro', n: 1 })).toEqual({ plan: { value: 'pro', persistent: false }, n: { value: 1, persistent: false } });
  });
});
