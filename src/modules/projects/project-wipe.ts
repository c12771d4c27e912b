import type { EntityManager } from 'typeorm';

/** Tables with a project_id that a reset keeps: the project itself, who may use it, and spent idempotency keys. */
/**
 * A reset keeps the project itself, and the deliverability history a reset must not launder:
 * suppressed addresses and reputation suspensions.
 */
export const KEPT_TABLES = ['projects', 'project_members', 'idempotency_keys', 'suppressions', 'project_suspensions'];

interface ForeignKey {
  child: string;
  parent: string;
}

/**
 * Orders tables so that each is deleted before the tables it references: a referencing row
 * must go first unless its foreign key cascades (cascades are harmless either way).
 */
export function deletionOrder(tables: string[], foreignKeys: ForeignKey[]): string[] {
  const pending = new Set(tables);
  const ordered: string[] = [];
  while (pending.size > 0) {
    // A table is ready when no other pending table still references it.
    const ready = [...pending].filter((t) => !foreignKeys.some((fk) => fk.parent === t && fk.child !== t && pending.has(fk.child)));
    // A reference cycle: take the rest in name order; deferrable constraints are deferred by the caller.
    const batch = ready.length > 0 ? ready.sort() : [...pending].sort();
    for (const t of batch) {
      ordered.push(t);
      pending.delete(t);
    }
  }
  return ordered;
}

/**
 * Deletes every row of the project from every `public` table that has a `project_id` column,
 * except KEPT_TABLES: discovered at runtime, so tables added by later modules are covered.
 * One DELETE per table; runs inside the caller's transaction. Returns the tables touched.
 */
export async function wipeProjectData(em: EntityManager, projectId: string): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await em.query(
    `SELECT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND c.column_name = 'project_id' AND t.table_type = 'BASE TABLE'
        AND NOT (c.table_name = ANY($1))`,
    [KEPT_TABLES],
  );
  const tables = rows.map((r) => r.table_name);
  if (tables.length === 0) return [];
  const foreignKeys: ForeignKey[] = await em.query(
    `SELECT child.relname AS child, parent.relname AS parent
       FROM pg_constraint k
       JOIN pg_class child ON child.oid = k.conrelid
       JOIN pg_class parent ON parent.oid = k.confrelid
      WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace`,
  );
  await em.query(`SET CONSTRAINTS ALL DEFERRED`);
  for (const table of deletionOrder(tables, foreignKeys)) {
    await em.query(`DELETE FROM ${quoteIdent(table)} WHERE project_id = $1`, [projectId]);
  }
  return tables.sort();
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
