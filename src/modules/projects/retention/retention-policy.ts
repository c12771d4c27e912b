/**
 * How long a project keeps each kind of data (docs/retention.md): the one place the setting's
 * defaults, bounds and cutoffs are decided. Readers (an email's content at read time) and pruners
 * (the background deletes) both ask here, so an answer never depends on when pruning ran.
 */

/** The setting's keys, persisted in `projects.retention` (jsonb): renaming one strands data. */
export const RETENTION_KINDS = ['eventsDays', 'emailContentDays', 'emailsDays', 'inboundDays'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** Days kept, or null: kept for good. */
export type Retention = Record<RetentionKind, number | null>;

/** What a project keeps until it says otherwise: events and emails for good, email content and received mail 30 days. */
export const RETENTION_DEFAULTS: Readonly<Retention> = { eventsDays: null, emailContentDays: 30, emailsDays: null, inboundDays: 30 };

export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 3_650;

/** As stored: only the keys a project set (a key set to null keeps that data for good; a key absent takes the default). */
export type StoredRetention = Partial<Retention>;

const DAY_MS = 86_400_000;

/** The project's retention, every kind decided (stored values over the defaults). */
export function retentionOf(project: { retention?: StoredRetention | null }): Retention {
  const stored = project.retention ?? {};
  const out = { ...RETENTION_DEFAULTS };
  for (const kind of RETENTION_KINDS) {
    const value = stored[kind];
    if (value === null || (Number.isInteger(value) && value! >= RETENTION_MIN_DAYS && value! <= RETENTION_MAX_DAYS)) out[kind] = value ?? null;
  }
  return out;
}

/** The instant before which data of `kind` is past the retention (`created_at < cutoff` goes), or null when it is kept for good. */
export function retentionCutoff(retention: Retention, kind: RetentionKind, now: Date = new Date()): Date | null {
  const days = retention[kind];
  return days === null ? null : new Date(now.getTime() - days * DAY_MS);
}

/** When a record made at `createdAt` expires under `kind` (null: never). */
export function expiresAt(retention: Retention, kind: RetentionKind, createdAt: Date): Date | null {
  const days = retention[kind];
  return days === null ? null : new Date(createdAt.getTime() + days * DAY_MS);
}

/** The instant an email's content expired, or null while it is kept (decided at read time, whatever the pruner has done yet). */
export function contentExpiredAt(retention: Retention, createdAt: Date, now: Date = new Date()): Date | null {
  const at = expiresAt(retention, 'emailContentDays', createdAt);
  return at !== null && at.getTime() <= now.getTime() ? at : null;
}

/** The stored setting with the keys a PATCH gives (a value, or null: kept for good) replaced, the others left as they were. */
export function withRetentionChanges(stored: StoredRetention | null | undefined, given: Partial<Record<RetentionKind, number | null | undefined>>): StoredRetention {
  const out: StoredRetention = { ...(stored ?? {}) };
  for (const kind of RETENTION_KINDS) if (given[kind] !== undefined) out[kind] = given[kind];
  return out;
}
