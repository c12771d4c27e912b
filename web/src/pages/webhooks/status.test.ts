import { describe, expect, it } from 'vitest';
import { firstAttemptInFlight } from './status';

describe('a delivery in flight', () => {
  const base = { status: 'pending' as const, attempts: 1, responseStatus: null, error: null };
  it('is a counted first attempt with neither an answer nor an error yet', () => {
    expect(firstAttemptInFlight(base)).toBe(true);
    expect(firstAttemptInFlight({ ...base, attempts: 0 })).toBe(false);
    expect(firstAttemptInFlight({ ...base, responseStatus: 500 })).toBe(false);
    expect(firstAttemptInFlight({ ...base, error: 'timeout after 10 s' })).toBe(false);
    expect(firstAttemptInFlight({ ...base, status: 'succeeded' as const, responseStatus: null })).toBe(false);
  });
});
