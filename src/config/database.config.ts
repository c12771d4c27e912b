// Where data and queues live: PostgreSQL or the embedded database, Redis or queues in the database, and how long a silent one is waited on.
import { ConfigError, Env, int, str, url } from './env';

export interface OutageConfig {
  /** `REQUEST_TIMEOUT_MS`: an API request not answered by then gets 503 and its database work is abandoned (0: no deadline). */
  requestTimeoutMs: number;
  /** `DATABASE_CONNECT_TIMEOUT_MS`: opening a pooled PostgreSQL connection, or waiting for a free one. */
  databaseConnectTimeoutMs: number;
  /**
   * `DATABASE_READ_TIMEOUT_MS`: a statement of background work (queues, sweeps, ticks) unanswered by
   * then fails and its connection is closed, so a connection a silent database left dead is never
   * waited on for ever (0: no bound). Requests are bounded by `requestTimeoutMs` instead.
   */
  databaseReadTimeoutMs: number;
  /** `REDIS_COMMAND_TIMEOUT_MS`: a command of the request path (rate-limit counters, readiness ping) unanswered by then fails. */
  redisCommandTimeoutMs: number;
  /** `REDIS_SOCKET_TIMEOUT_MS`: a queue connection that has a command waiting and receives nothing for this long is dropped and reopened. */
  redisSocketTimeoutMs: number;
}

export interface DatabaseConfig {
  /** Unset: the embedded PGlite database is started and its loopback URL is filled in at boot. */
  databaseUrl?: string;
  /** `EMBEDDED_DB_BUFFERS_MB`: the embedded database's shared_buffers (PostgreSQL's 128 MB default is resident from start). */
  embeddedDbBuffersMb: number;
  /**
   * `EMBEDDED_MAINTENANCE_INTERVAL_MS`: how often the embedded database, which has no autovacuum,
   * looks for tables to vacuum or analyze and GIN pending lists to merge; 0: never (default 30 s).
   */
  embeddedMaintenanceIntervalMs: number;
  redisUrl?: string;
  /** Prefix for Redis keys and BullMQ queues, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  /** How long the service waits on a silent PostgreSQL or Redis (docs/operations.md, "When a dependency goes silent"). */
  outage: OutageConfig;
}

/** `processes` is `PROCESSES`: more than one needs a database outside the process. */
export function databaseConfig(env: Env, processes: number): DatabaseConfig {
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  if (processes > 1 && !databaseUrl) {
    throw new ConfigError('PROCESSES above 1 requires DATABASE_URL (the embedded database lives inside one process)');
  }
  return {
    databaseUrl,
    embeddedDbBuffersMb: int(env, 'EMBEDDED_DB_BUFFERS_MB', 16, 1, 4096),
    embeddedMaintenanceIntervalMs: int(env, 'EMBEDDED_MAINTENANCE_INTERVAL_MS', 30_000, 0, 86_400_000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'mailroom',
    outage: outageConfig(env, databaseUrl !== undefined || str(env, 'REDIS_URL') !== undefined),
  };
}

function outageConfig(env: Env, external: boolean): OutageConfig {
  return {
    // The embedded database runs in-process: it cannot go silent, and a deadline would only cut long requests short.
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', external ? 4_000 : 0, 0, 3_600_000),
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3_000, 100, 600_000),
    // Above the longest statement background work runs on purpose (a segment query: SEGMENT_QUERY_TIMEOUT_MS, 30 s).
    databaseReadTimeoutMs: int(env, 'DATABASE_READ_TIMEOUT_MS', external ? 60_000 : 0, 0, 86_400_000),
    redisCommandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 1_000, 50, 600_000),
    // Above BullMQ's longest blocking read (10 s), which is a command waiting for data too.
    redisSocketTimeoutMs: int(env, 'REDIS_SOCKET_TIMEOUT_MS', 15_000, 11_000, 600_000),
  };
}
