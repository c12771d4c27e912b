import type { EntityManager } from 'typeorm';
import { affectedCount } from '../../../platform/database/query-results';

/**
 * Deletes those of the project's content rows `ids` that no email references any more and no
 * audience (a campaign, an A/B variant) holds, after the emails that used them were erased,
 * pruned or cleared, in the caller's transaction; answers how many went. A content row is only
 * ever given to new emails by its audience, so one no email and no audience holds stays
 * unreferenced. A statement of its own, not a CTE of the emails' change: a statement does not see
 * what its own CTE changed, so the emails just changed would still reference them.
 */
export async function deleteUnreferencedContents(em: EntityManager, projectId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result: unknown = await em.query(
    `DELETE FROM email_contents c
      WHERE c.id = ANY($2::uuid[]) AND c.project_id = $1 AND NOT c.audience
        AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.content_id = c.id)`,
    [projectId, [...new Set(ids)]],
  );
  return affectedCount(result);
}
