import type { EntityManager } from 'typeorm';

/**
 * Deletes those of the project's content rows `ids` that no email references any more (after the
 * emails that used them were erased or pruned), in the caller's transaction. A second statement,
 * not a CTE of the delete: a statement sees no row its own CTE removed, so the emails just deleted
 * would still reference them.
 */
export async function deleteUnreferencedContents(em: EntityManager, projectId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await em.query(`DELETE FROM email_contents c WHERE c.project_id = $1 AND c.id = ANY($2::uuid[]) AND NOT EXISTS (SELECT 1 FROM emails o WHERE o.content_id = c.id)`, [
    projectId,
    [...new Set(ids)],
  ]);
}
