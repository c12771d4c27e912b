import type { EntityManager } from 'typeorm';

/**
 * Counts templates and unsent campaigns whose sender uses `domain` or one of its subdomains.
 * Those tables belong to other modules and may not exist yet, so each query is guarded by
 * `to_regclass` and finds the sender column by name.
 */
export async function countDomainUsage(em: EntityManager, projectId: string, domain: string): Promise<{ templates: number; campaigns: number }> {
  return {
    templates: await countIn(em, 'templates', projectId, domain, ''),
    // Campaign statuses are upper-case persisted values; SENT and CANCELLED no longer send.
    campaigns: await countIn(em, 'campaigns', projectId, domain, `AND status NOT IN ('SENT', 'CANCELLED')`),
  };
}

async function countIn(em: EntityManager, table: 'templates' | 'campaigns', projectId: string, domain: string, extra: string): Promise<number> {
  const columns: Array<{ column_name: string }> = await em.query(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 AND column_name IN ('from_address', 'from_email', 'from', 'status', 'project_id')`,
    [table],
  );
  const names = new Set(columns.map((c) => c.column_name));
  const fromColumn = ['from_address', 'from_email', 'from'].find((c) => names.has(c));
  if (!fromColumn || !names.has('project_id') || (extra && !names.has('status'))) return 0;
  const rows: Array<{ count: string }> = await em.query(
    `SELECT count(*)::text AS count
       FROM ${table}, LATERAL (SELECT lower(rtrim(split_part("${fromColumn}", '@', 2), '> ')) AS sender_domain) s
      WHERE project_id = $1 ${extra}
        AND (sender_domain = $2 OR sender_domain LIKE '%.' || $2)`,
    [projectId, domain],
  );
  return Number(rows[0]?.count ?? 0);
}
