import { describe, expect, it } from 'vitest';
import { formatDate, userTimeZone } from './format';

describe('formatDate', () => {
  it('shows the time in the given zone and names the zone', () => {
    expect(formatDate('2026-03-05T13:30:00Z', { timeZone: 'UTC', locale: 'en-US' })).toBe('Mar 5, 2026, 1:30 PM UTC');
    expect(formatDate('2026-03-05T13:30:00Z', { timeZone: 'America/New_York', locale: 'en-US' })).toBe('Mar 5, 2026, 8:30 AM EST');
    // Summer time moves the clock and the zone's name with it.
    expect(formatDate('2026-07-05T13:30:00Z', { timeZone: 'America/New_York', locale: 'en-US' })).toBe('Jul 5, 2026, 9:30 AM EDT');
  });

  it('crosses the date line with the zone', () => {
    expect(formatDate('2026-03-05T23:30:00Z', { timeZone: 'Asia/Tokyo', locale: 'en-US' })).toBe('Mar 6, 2026, 8:30 AM GMT+9');
  });

  it('follows the locale', () => {
    expect(formatDate('2026-03-05T13:30:00Z', { timeZone: 'Europe/Berlin', locale: 'de-DE' })).toBe('5. März 2026, 14:30 MEZ');
  });

  it('accepts epoch milliseconds and Date objects', () => {
    const ms = Date.UTC(2026, 0, 2, 3, 4);
    expect(formatDate(ms, { timeZone: 'UTC', locale: 'en-US' })).toBe('Jan 2, 2026, 3:04 AM UTC');
    expect(formatDate(new Date(ms), { timeZone: 'UTC', locale: 'en-US' })).toBe('Jan 2, 2026, 3:04 AM UTC');
  });

  it("uses the user's zone by default and always names it", () => {
    expect(formatDate('2026-03-05T13:30:00Z', { locale: 'en-US' })).toBe(formatDate('2026-03-05T13:30:00Z', { locale: 'en-US', timeZone: userTimeZone() }));
    expect(formatDate('2026-03-05T13:30:00Z', { locale: 'en-US' })).toMatch(/ (UTC|GMT[+-]?\d*|[A-Z]{2,5})$/);
  });

  it('answers a dash for nothing and the text itself for what is not a date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate(undefined)).toBe('—');
    expect(formatDate('')).toBe('—');
    expect(formatDate('soon')).toBe('soon');
  });
});
