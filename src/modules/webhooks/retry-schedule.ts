/**
 * The schedule is configuration (`webhooks.retryScheduleMs`, `WEBHOOK_RETRY_SCHEDULE_MS`; by default
 * the contract's 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: 8 attempts in all).
 */

/** Milliseconds before the next attempt after `attempts` attempts failed, or null when that was the last one. */
export function retryDelayMs(schedule: readonly number[], attempts: number): number | null {
  return attempts >= 1 && attempts <= schedule.length ? schedule[attempts - 1] : null;
}

/** Attempts a delivery gets by itself: the first and one per delay of the schedule. */
export const maxAttempts = (schedule: readonly number[]): number => schedule.length + 1;
