import { loadConfig } from '../../config/config';
import { maxAttempts, retryDelayMs } from './retry-schedule';

const DEFAULT_RETRY_SCHEDULE_MS = loadConfig({ APP_SECRET: 'x'.repeat(32) }).webhooks.retryScheduleMs;

describe('retry schedule', () => {
  it('is the contract: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 8 attempts in all', () => {
    const s = 1000;
    const min = 60 * s;
    const h = 60 * min;
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([5 * s, 5 * min, 30 * min, 2 * h, 5 * h, 10 * h, 10 * h]);
    expect(maxAttempts(DEFAULT_RETRY_SCHEDULE_MS)).toBe(8);
  });

  it('gives the delay after each failed attempt, and none after the last', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, n))).toEqual([...DEFAULT_RETRY_SCHEDULE_MS]);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, 8)).toBeNull();
    // A retry by hand after the delivery failed is one more attempt, not a new schedule.
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS, 9)).toBeNull();
  });

  it('follows a configured schedule (WEBHOOK_RETRY_SCHEDULE_MS)', () => {
    expect(retryDelayMs([100, 200], 1)).toBe(100);
    expect(retryDelayMs([100, 200], 2)).toBe(200);
    expect(retryDelayMs([100, 200], 3)).toBeNull();
  });

  it('reads WEBHOOK_RETRY_SCHEDULE_MS and refuses a malformed one', () => {
    expect(loadConfig({ APP_SECRET: 'x'.repeat(32), WEBHOOK_RETRY_SCHEDULE_MS: '100, 200,0' }).webhooks.retryScheduleMs).toEqual([100, 200, 0]);
    for (const bad of ['1,,2', 'a', '-5', '1.5', String(8 * 86_400_000)]) {
      expect(() => loadConfig({ APP_SECRET: 'x'.repeat(32), WEBHOOK_RETRY_SCHEDULE_MS: bad })).toThrow(/WEBHOOK_RETRY_SCHEDULE_MS/);
    }
  });
});
