import { retrying } from '../retry';

/** SQLSTATE codes the services react to (PostgreSQL appendix A). */
export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  deadlock: '40P01',
  serializationFailure: '40001',
  queryCanceled: '57014',
  lockNotAvailable: '55P03',
  /** Raised by our triggers: keysPerProject (ContactFieldsLimit), keysPerContact (ContactDataKeysLimit). */
  dataKeysPerProject: 'MR001',
  dataKeysPerContact: 'MR002',
} as const;

/** The SQLSTATE of a driver error or of TypeORM's QueryFailedError wrapping one. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e.driverError?.code ?? e.code;
  return typeof code === 'string' ? code : undefined;
}

export const isUniqueViolation = (error: unknown): boolean => sqlState(error) === SQLSTATE.uniqueViolation;
export const isForeignKeyViolation = (error: unknown): boolean => sqlState(error) === SQLSTATE.foreignKeyViolation;
export const isDeadlock = (error: unknown): boolean => sqlState(error) === SQLSTATE.deadlock;
export const isQueryCanceled = (error: unknown): boolean => sqlState(error) === SQLSTATE.queryCanceled;
/** A lock not had within `lock_timeout`. */
export const isLockNotAvailable = (error: unknown): boolean => sqlState(error) === SQLSTATE.lockNotAvailable;
/** A transaction the database aborted for a concurrent one (deadlock, serialization): running it again may succeed. */
export const isRetryableConflict = (error: unknown): boolean => {
  const state = sqlState(error);
  return state === SQLSTATE.deadlock || state === SQLSTATE.serializationFailure;
};

/**
 * Runs `work` (one statement or one whole transaction) again when the database aborted it for a
 * concurrent one, up to `attempts` times in all. For writes a user waits on that can meet the
 * sending pipeline's locks: deleting a contact while its email's sent record is written locks the
 * same contact and email rows in the other order, and PostgreSQL resolves that by aborting one
 * side. The aborted side wrote nothing, so running it again is safe.
 */
export function retryOnConflict<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  return retrying(work, isRetryableConflict, attempts);
}

/** A custom-data limit the database enforces: its message names the limit. Not transient: retrying cannot help. */
export function dataLimitMessage(error: unknown): string | undefined {
  const state = sqlState(error);
  if (state !== SQLSTATE.dataKeysPerProject && state !== SQLSTATE.dataKeysPerContact) return undefined;
  const e = error as { message?: unknown; driverError?: { message?: unknown } };
  return String(e.driverError?.message ?? e.message);
}
