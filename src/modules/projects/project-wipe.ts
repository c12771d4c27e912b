/**
 * A reset keeps the project itself, who may use it, spent idempotency keys, and the history a
 * reset must not launder: suppressed addresses, reputation suspensions and the audit log. (A
 * deletion takes them with the project: their foreign keys cascade.)
 */
export const KEPT_TABLES = ['projects', 'project_members', 'idempotency_keys', 'suppressions', 'project_suspensions', 'audit_log'];

export interface ForeignKey {
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
