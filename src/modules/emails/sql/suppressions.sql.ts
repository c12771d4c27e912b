import { Fragment, sql } from '../../../platform/database/sql-fragment';

/** Addresses are stored trimmed and lower-cased. */
export const normalizeSuppressed = (email: string): string => email.trim().toLowerCase();

/** The key `suppressedAmongSql`'s rows map to for this (project, address). */
export const suppressionKey = (projectId: string, email: string): string => `${projectId}/${normalizeSuppressed(email)}`;

/**
 * True when the address is on its project's suppression list (one probe of the primary key).
 * `projectId` and `email` are SQL expressions of the caller's statement (trusted text, never input).
 */
export const suppressedSql = (r: { projectId: string; email: string }): string =>
  `EXISTS (SELECT 1 FROM suppressions s WHERE s.project_id = ${r.projectId} AND s.email = ${r.email})`;

/** The suppressed ones among these (project, address) pairs, as rows `(project_id, email)`: one statement for all of them. */
export function suppressedAmongSql(pairs: Array<{ projectId: string; email: string }>): Fragment {
  return sql`SELECT s.project_id, s.email FROM suppressions s
         JOIN unnest(${pairs.map((p) => p.projectId)}::uuid[], ${pairs.map((p) => normalizeSuppressed(p.email))}::text[]) AS x(project_id, email)
           ON s.project_id = x.project_id AND s.email = x.email`;
}
