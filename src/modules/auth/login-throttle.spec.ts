import { MemoryCounterStore } from '../../platform/http/rate-limit/memory-counter-store';
import { ACCOUNT_PACE, ACCOUNT_WIDE_PACE, delayAfter, LoginThrottle, SOURCE_PACE, sourceOf } from './login-throttle';

const outcome = (attempt: Promise<unknown>): Promise<'go' | number> =>
  attempt.then(
    () => 'go' as const,
    (err: { statusCode?: number }) => err.statusCode ?? -1,
  );

describe('LoginThrottle', () => {
  const store = new MemoryCounterStore();
  const throttle = new LoginThrottle(store);
  afterAll(() => store.onModuleDestroy());

  it('waits nothing within the free attempts, then doubles up to 15 minutes', () => {
    expect([1, 2, 3, 4].map((n) => delayAfter(ACCOUNT_PACE, n))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((n) => delayAfter(ACCOUNT_PACE, n))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(delayAfter(ACCOUNT_PACE, 40)).toBe(15 * 60 * 1000);
    expect(delayAfter(ACCOUNT_PACE, 10_000)).toBe(15 * 60 * 1000);
    expect(delayAfter(SOURCE_PACE, SOURCE_PACE.free - 1)).toBe(0);
    expect(delayAfter(SOURCE_PACE, SOURCE_PACE.free)).toBe(2_000);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(sourceOf('2001:db8:1:2:aaaa::1')).toBe(sourceOf('2001:db8:1:2:bbbb::2'));
    expect(sourceOf('2001:db8:1:2::1')).not.toBe(sourceOf('2001:db8:1:3::1'));
    expect(sourceOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(sourceOf('203.0.113.9')).not.toBe(sourceOf('203.0.113.10'));
    expect(sourceOf(undefined)).toBe('unknown');
  });

  it('lets one of a burst of parallel attempts past the free ones through, not all of them', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => outcome(throttle.begin('burst@example.com', '198.51.100.20'))));
    // The free attempts go (the last of them claims the wait); every other one is refused.
    expect(results.filter((r) => r === 'go')).toHaveLength(ACCOUNT_PACE.free);
    expect(results.filter((r) => r === 429)).toHaveLength(20 - ACCOUNT_PACE.free);
  });

  it('holds one source at one account, not the account from elsewhere', async () => {
    for (let i = 0; i < ACCOUNT_PACE.free; i++) await throttle.begin('held@example.com', '198.51.100.30');
    expect(await outcome(throttle.begin('held@example.com', '198.51.100.30'))).toBe(429);
    expect(await outcome(throttle.begin('held@example.com', '198.51.100.31'))).toBe('go');
    expect(await outcome(throttle.begin('other@example.com', '198.51.100.30'))).toBe('go');
  });

  it('starts the source over at the account once the password was right', async () => {
    for (let i = 0; i < ACCOUNT_PACE.free - 1; i++) await throttle.begin('owner@example.com', '198.51.100.40');
    await throttle.succeeded(await throttle.begin('owner@example.com', '198.51.100.40'));
    for (let i = 0; i < ACCOUNT_PACE.free; i++) expect(await outcome(throttle.begin('owner@example.com', '198.51.100.40'))).toBe('go');
  });

  it('counts only failures from a source: its successful sign-ins never add up to a wait', async () => {
    for (let i = 0; i < SOURCE_PACE.free + 5; i++) {
      const attempt = await throttle.begin(`office-${i}@example.com`, '198.51.100.50');
      await throttle.succeeded(attempt);
    }
    expect(await outcome(throttle.begin('office-last@example.com', '198.51.100.50'))).toBe('go');
  });

  it('paces failures at one account across many sources, but not from the sources it signed in from', async () => {
    const email = 'besieged@example.com';
    await throttle.trustSource(email, '198.51.100.60');
    // One failure from each of many sources: each stays within its own allowance.
    for (let i = 0; i < ACCOUNT_WIDE_PACE.free; i++) expect(await outcome(throttle.begin(email, `203.0.113.${i + 1}`))).toBe('go');
    expect(await outcome(throttle.begin(email, '203.0.113.200'))).toBe(429);
    expect(await outcome(throttle.begin(email, '198.51.100.60'))).toBe('go');
    expect(await outcome(throttle.begin('someone-else@example.com', '203.0.113.201'))).toBe('go');
  });
});
