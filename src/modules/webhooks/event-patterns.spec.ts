import { matches, patternProblem, splitPatterns } from './event-patterns';

describe('event patterns', () => {
  it('accepts an exact name, a prefix ending in .*, and *', () => {
    for (const p of ['*', 'email.bounce', 'purchase', 'email.*', 'segment.*', 'segment.vip-customers.entry', 'Signed_Up', 'a.b.*']) {
      expect({ p, problem: patternProblem(p) }).toEqual({ p, problem: null });
    }
  });

  it('refuses malformed patterns', () => {
    for (const p of ['', ' ', 'email.', '.*', '*.open', 'email*', 'email.**', 'em*ail', 'email..open', '.email', 'two words', '**', 'a'.repeat(201)]) {
      expect({ p, problem: patternProblem(p) }).toEqual({ p, problem: expect.any(String) });
    }
  });

  it('matches names by the three forms', () => {
    expect(matches(['*'], 'anything.at.all')).toBe(true);
    expect(matches(['email.bounce'], 'email.bounce')).toBe(true);
    expect(matches(['email.bounce'], 'email.bounced')).toBe(false);
    expect(matches(['email.*'], 'email.open')).toBe(true);
    expect(matches(['email.*'], 'email.link.click')).toBe(true);
    expect(matches(['email.*'], 'email')).toBe(false);
    expect(matches(['email.*'], 'emails.open')).toBe(false);
    expect(matches(['segment.*'], 'segment.vip.entry')).toBe(true);
    expect(matches(['purchase', 'contact.*'], 'contact.unsubscribed')).toBe(true);
    expect(matches(['purchase', 'contact.*'], 'email.sent')).toBe(false);
    expect(matches([], 'purchase')).toBe(false);
  });
});

describe('splitPatterns', () => {
  it('splits patterns by form for the SQL twin of matches', () => {
    expect(splitPatterns(['email.*', 'purchase', '*'])).toEqual({ all: true, exact: ['purchase'], prefixes: ['email.'] });
    expect(splitPatterns(['segment.*'])).toEqual({ all: false, exact: [], prefixes: ['segment.'] });
  });
});
