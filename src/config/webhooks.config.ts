// Outgoing HTTP to users' endpoints: event webhook delivery, retries and pacing, and which addresses may be reached.
import { ConfigError, Env, bool, int, str } from './env';

export interface WebhooksConfig {
  webhookAllowPrivate: boolean;
  /** Event webhooks (docs/decisions.md#event-webhooks). */
  webhooks: {
    /** `WEBHOOK_RETRY_SCHEDULE_MS`: delays before attempts 2, 3, … (comma-separated ms; default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
    retryScheduleMs: number[];
    /** `WEBHOOK_AUTO_DISABLE_AFTER_MS`: an endpoint failing without a success this long is disabled FAILING (default 5 days). */
    autoDisableAfterMs: number;
    /** `WEBHOOK_SWEEP_INTERVAL_MS`: how often worker processes look for overdue deliveries and failing endpoints (default 5 s). */
    sweepIntervalMs: number;
    /** `WEBHOOK_SWEEP_GRACE_MS`: how far past its due time a pending delivery must be before the sweep enqueues it again (default 60 s). */
    sweepGraceMs: number;
    /** `WEBHOOK_CONCURRENCY`: requests one worker process has in flight at once (default 64). */
    concurrency: number;
    /** `WEBHOOK_YIELD_MAX_MS`: while the API of its process is busy, deliveries wait, one group going on anyway per this many ms (default 2 s; 0: never waits). */
    yieldMaxMs: number;
  };
}

export function webhooksConfig(env: Env): WebhooksConfig {
  return {
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhooks: {
      retryScheduleMs: retrySchedule(env),
      autoDisableAfterMs: int(env, 'WEBHOOK_AUTO_DISABLE_AFTER_MS', 5 * 86_400_000, 1_000, 365 * 86_400_000),
      sweepIntervalMs: int(env, 'WEBHOOK_SWEEP_INTERVAL_MS', 5_000, 100, 3_600_000),
      sweepGraceMs: int(env, 'WEBHOOK_SWEEP_GRACE_MS', 60_000, 0, 86_400_000),
      concurrency: int(env, 'WEBHOOK_CONCURRENCY', 64, 1, 10_000),
      yieldMaxMs: int(env, 'WEBHOOK_YIELD_MAX_MS', 2_000, 0, 60_000),
    },
  };
}

/** docs/decisions.md#event-webhooks: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
const WEBHOOK_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** `WEBHOOK_RETRY_SCHEDULE_MS`: comma-separated delays in ms (each at most 7 days, 1 to 20 of them). */
function retrySchedule(env: Env): number[] {
  const raw = str(env, 'WEBHOOK_RETRY_SCHEDULE_MS');
  if (raw === undefined) return WEBHOOK_RETRY_SCHEDULE_MS;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > 20 || parts.some((p) => !/^\d+$/.test(p) || Number(p) > 7 * 86_400_000)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE_MS must be 1 to 20 comma-separated delays in milliseconds, each at most 7 days (got "${raw}")`);
  }
  return parts.map(Number);
}
