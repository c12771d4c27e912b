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
  /** The domain re-verification round (one process at a time; a `SingletonLocks` space, as those below). */
  domainVerification: 7_301_500,
  /** The segment membership recompute round. */
  segmentRecompute: 7_306_000,
  /** The retention pruning round (docs/retention.md). */
  retentionPrune: 7_306_100,
  /** Creating a webhook endpoint (with the project's id as the second key): the per-project limit holds under concurrent creates. */
  webhookEndpoints: 7_320_000,
  /** `SingletonLocks` spaces (two-key form, with the hash of a name): an event consumer, by its name. */
  eventConsumers: 7_330_000,
  /** A SENDING campaign's fan-out, by the campaign's id. */
  campaignFanOut: 7_330_001,
} as const;
