import type { DataSource } from 'typeorm';

export interface Reference {
  id: string;
  name: string | null;
}

/**
 * What blocks deleting a segment: other segments whose stored trees use `segment.<id>`, and
 * SCHEDULED or SENDING campaigns whose audience is the segment or a tree that references it.
 */
export async function findSegmentUses(db: DataSource, projectId: string, segmentId: string): Promise<{ segments: Reference[]; campaigns: Reference[] }> {
  const segments: Reference[] = await db.query(
    `SELECT id::text, name FROM segments
     WHERE project_id = $1 AND id <> $2 AND condition IS NOT NULL
       AND jsonb_path_exists(condition, '$.**.field ? (@ == $f)', jsonb_build_object('f', 'segment.' || $2::text), true)
     ORDER BY name, id`,
    [projectId, segmentId],
  );
  const [{ present }] = await db.query(`SELECT to_regclass('campaigns') IS NOT NULL AS present`);
  const campaigns: Reference[] = present
    ? await db.query(
        `SELECT id::text, name FROM campaigns
         WHERE project_id = $1 AND status IN ('SCHEDULED', 'SENDING')
           AND ((audience_type = 'SEGMENT' AND segment_id = $2)
             OR (audience_type = 'FILTERED' AND jsonb_path_exists(audience_condition, '$.**.field ? (@ == $f)', jsonb_build_object('f', 'segment.' || $2::text), true)))
         ORDER BY name, id`,
        [projectId, segmentId],
      )
    : [];
  return { segments, campaigns };
}
