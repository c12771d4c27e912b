import { damerauLevenshtein, suggestDomain } from './email-typos';

describe('damerauLevenshtein', () => {
  it('counts an adjacent transposition as one edit', () => {
    expect(damerauLevenshtein('gmial.com', 'gmail.com')).toBe(1);
    expect(damerauLevenshtein('gmail.com', 'gmail.com')).toBe(0);
    expect(damerauLevenshtein('gmai.com', 'gmail.com')).toBe(1);
    expect(damerauLevenshtein('abc', 'xyz')).toBe(3);
  });
});

describe('suggestDomain', () => {
  it.each([
    ['gmial.com', 'gmail.com'],
    ['gmai.com', 'gmail.com'],
    ['gmail.con', 'gmail.com'],
    ['gmal.cmo', 'gmail.com'],
    ['hotmial.com', 'hotmail.com'],
    ['yaho.com', 'yahoo.com'],
    ['outlok.com', 'outlook.com'],
    ['aol.con', 'aol.com'],
    ['icloud.co', 'icloud.com'],
    ['example.con', 'example.com'],
    ['example.ogr', 'example.org'],
  ])('suggests %s → %s', (typo, fixed) => {
    expect(suggestDomain(typo)).toBe(fixed);
  });

  it.each([['gmail.com'], ['mail.com'], ['email.com'], ['example.com'], ['me.com'], ['acme.io'], ['aol.de'], ['gmx.de']])('leaves %s alone', (domain) => {
    expect(suggestDomain(domain)).toBeNull();
  });
});
