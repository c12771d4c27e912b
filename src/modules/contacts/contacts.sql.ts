/**
 * SQL the contacts module hands to other modules' statements, so that they read contacts in their
 * own round trip without naming the table's columns. Arguments are trusted SQL expressions of the
 * caller's statement (column references, parameters), never input.
 */

/**
 * `subscribed` of the project's contact with this address (normalised: lower-cased, trimmed), NULL
 * when the project has no such contact. One probe of the (project_id, email) unique index.
 */
export const contactSubscribedSql = (projectId: string, normalizedEmail: string): string =>
  `(SELECT ct.subscribed FROM contacts ct WHERE ct.project_id = ${projectId} AND ct.email = ${normalizedEmail})`;
