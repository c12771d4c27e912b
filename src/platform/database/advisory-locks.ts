import type { DataSource } from 'typeorm';

/**
 * Every PostgreSQL advisory lock key of the service, in one list so two jobs never share one by
 * accident. Keys are persisted in no table but must agree across every process of a deployment:
 * never renumber one.
 */
export const ADVISORY_LOCKS = {
  /** Migrations at startup: one process migrates, the others wait. */
  migrations: 7_246_001,
  /** BOOTSTRAP_*: the first user and project are created once across processes starting together. */
  bootstrap: 7_246_002,
  /** The domain re-verification round (one process at a time). */
  domainVerification: 7_301_500,
  /** The segment membership recompute round. */
  segmentRecompute: 7_306_000,
  /** Creating a webhook endpoint (with the project's id as the second key): the per-project limit holds under concurrent creates. */
  webhookEndpoints: 7_320_000,
} as const;

/**
 * Runs `work` while holding the session-level advisory lock `key` on a connection of its own, or
 * returns `whenHeld` at once when another process holds it (one round of a scheduled job per
 * deployment). The lock is released on that same connection, whatever `work` does.
 */
export async function withTryAdvisoryLock<T>(dataSource: DataSource, key: number, whenHeld: T, work: () => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = (await runner.query(`SELECT pg_try_advisory_lock($1) AS locked`, [key])) as Array<{ locked: boolean }>;
    if (!locked) return whenHeld;
    try {
      return await work();
    } finally {
      await runner.query(`SELECT pg_advisory_unlock($1)`, [key]);
    }
  } finally {
    await runner.release();
  }
}
