import type { EntityManager } from 'typeorm';
import type { TemplateUsageResponse } from '../dto/template.response';

async function columnsOf(em: EntityManager, table: string): Promise<Set<string> | null> {
  const [{ exists }] = (await em.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [`public.${table}`])) as Array<{ exists: boolean }>;
  if (!exists) return null;
  const rows = (await em.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`, [
    table,
  ])) as Array<{ column_name: string }>;
  return new Set(rows.map((r) => r.column_name));
}

/**
 * Campaigns and workflow steps that reference the template. Those tables belong to other
 * modules and may not exist (or may not carry a template reference) in every build, so each
 * query is guarded by `to_regclass` and by the columns it reads.
 */
export async function findTemplateUsage(em: EntityManager, projectId: string, templateId: string): Promise<TemplateUsageResponse> {
  const usage: TemplateUsageResponse = { campaigns: [], workflowSteps: [] };

  const campaignColumns = await columnsOf(em, 'campaigns');
  if (campaignColumns?.has('template_id') && campaignColumns.has('project_id')) {
    const status = campaignColumns.has('status') ? 'status' : 'NULL';
    const rows = (await em.query(
      `SELECT id::text AS id, name, ${status} AS status FROM campaigns WHERE project_id = $1 AND template_id::text = $2 ORDER BY created_at DESC`,
      [projectId, templateId],
    )) as Array<{ id: string; name: string; status: string | null }>;
    usage.campaigns = rows;
  }

  const stepColumns = await columnsOf(em, 'workflow_steps');
  const workflowColumns = await columnsOf(em, 'workflows');
  if (stepColumns?.has('config') && stepColumns.has('workflow_id') && workflowColumns?.has('project_id')) {
    const rows = (await em.query(
      `SELECT s.id::text AS id, s.workflow_id::text AS "workflowId", w.name AS "workflowName"
         FROM workflow_steps s JOIN workflows w ON w.id = s.workflow_id
        WHERE w.project_id = $1 AND s.config->>'templateId' = $2
        ORDER BY w.name, s.id`,
      [projectId, templateId],
    )) as Array<{ id: string; workflowId: string; workflowName: string | null }>;
    usage.workflowSteps = rows;
  }
  return usage;
}
