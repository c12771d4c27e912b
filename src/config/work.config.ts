// Background work: how much a worker process takes on (workflows, segments, campaign fan-out) and how it yields to the API.
import { Env, int } from './env';
import type { Role } from './server.config';

export interface WorkConfig {
  /** `WORKER_NICE`: added to the scheduling priority (nice) of a `ROLE=worker` process at start, so API processes win the CPU (default 10; 0: unchanged). */
  workerNice: number;
  /** `WORKFLOW_CONCURRENCY`: workflow executions one process runs a step of at once (8 with `ROLE=worker`, else 2). */
  workflowConcurrency: number;
  /** `SEGMENT_RECOMPUTE_INTERVAL_MS` (default 5 minutes; tests use less) and `SEGMENT_QUERY_TIMEOUT_MS` (statement_timeout of segment queries). */
  segments: { recomputeIntervalMs: number; queryTimeoutMs: number };
  /**
   * `CAMPAIGN_BATCH_SIZE`: contacts per keyset batch (one INSERT … SELECT + checkpoint); `CAMPAIGN_MAX_QUEUED`: a campaign's emails waiting ahead of the transport at most.
   */
  campaigns: { batchSize: number; maxQueued: number };
  /** `RETENTION_PRUNE_INTERVAL_MS`: how often a worker process prunes what each project's retention lets go (default 1 hour; tests use less). docs/retention.md. */
  retention: { pruneIntervalMs: number };
}

export function workConfig(env: Env, role: Role): WorkConfig {
  return {
    workerNice: int(env, 'WORKER_NICE', 10, 0, 19),
    // A process that also serves the API lets workflow work take less of it.
    workflowConcurrency: int(env, 'WORKFLOW_CONCURRENCY', role === 'worker' ? 8 : 2, 1, 1000),
    segments: {
      recomputeIntervalMs: int(env, 'SEGMENT_RECOMPUTE_INTERVAL_MS', 300_000, 100, 86_400_000),
      queryTimeoutMs: int(env, 'SEGMENT_QUERY_TIMEOUT_MS', 30_000, 1, 3_600_000),
    },
    campaigns: {
      batchSize: int(env, 'CAMPAIGN_BATCH_SIZE', 1_000, 1, 100_000),
      maxQueued: int(env, 'CAMPAIGN_MAX_QUEUED', 5_000, 1, 100_000_000),
    },
    retention: { pruneIntervalMs: int(env, 'RETENTION_PRUNE_INTERVAL_MS', 3_600_000, 100, 86_400_000) },
  };
}
