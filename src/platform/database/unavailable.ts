/**
 * Whether an error means a backing service (PostgreSQL, Redis) is unreachable or refusing
 * connections right now, rather than a fault of the request or of our code: the answer to such a
 * request is 503 with `Retry-After`, never 500 (docs/operations.md, "Reliability").
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

/** SQLSTATE class 08 (connection exception), and the shutdown / cannot-connect / too-many-connections states. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Messages of pg, pg-pool and ioredis for a lost or impossible connection (they carry no code). */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
  /Cannot use a pool after calling end on the pool/,
  /^Connection is closed\.?$/,
  /Stream isn't writeable and enableOfflineQueue options is false/,
  /Reached the max retries per request limit/,
  // A silent dependency: pg's statement read timeout, ioredis' command and socket timeouts, the request's deadline.
  /^Query read timeout$/,
  /^Command timed out$/,
  /^Socket timeout\. Expecting data/,
  /^Request deadline exceeded while waiting for a backing service$/,
];

export function isServiceUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; name?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || UNAVAILABLE_SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(e.message as string))) return true;
  // TypeORM's QueryFailedError wraps the driver's error; AggregateError (dual-stack connects) holds several.
  if (isServiceUnavailable(e.driverError, depth + 1) || isServiceUnavailable(e.cause, depth + 1)) return true;
  return Array.isArray(e.errors) && e.errors.some((inner) => isServiceUnavailable(inner, depth + 1));
}
