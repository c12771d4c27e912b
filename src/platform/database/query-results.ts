/**
 * TypeORM's postgres driver answers `query()` with the rows for SELECT and INSERT … RETURNING,
 * but with `[rows, affectedCount]` for UPDATE and DELETE (with or without RETURNING). These read
 * either shape.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (!Array.isArray(result)) return [];
  return (isUpdateResult(result) ? result[0] : result) as T[];
}

/** Rows changed by an UPDATE/DELETE (or returned by an INSERT … RETURNING). */
export function affectedCount(result: unknown): number {
  if (!Array.isArray(result)) return 0;
  return isUpdateResult(result) ? (result[1] as number) : result.length;
}

function isUpdateResult(result: unknown[]): boolean {
  return result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number';
}
