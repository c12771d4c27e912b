import type { EntityManager } from 'typeorm';
import { sql } from '../../../platform/database/sql-fragment';
import type { EventsService } from '../../events/events.service';
import type { AudienceService } from '../audience.service';
import type { SegmentDefinition } from '../filter/validate-filter';
import { segmentEventNames } from '../segment-slug';

/** Contacts per batch: one statement inserts/deletes at most this many members (and emits their events). */
export const COMPUTE_BATCH = 50_000;

export interface ComputeResult {
  memberCount: number;
  entered: number;
  exited: number;
}

/**
 * Brings a tracked DYNAMIC segment's stored membership up to date, set-based, in keyset batches
 * of the project's contacts by id. Each batch is one statement in its own transaction: the
 * matching contacts of the id range are inserted (ON CONFLICT DO NOTHING: only the ones that
 * joined come back), the stored members of the range that no longer match are deleted (only
 * the ones that left come back); both sets become `segment.<slug>.entry|exit` events through
 * `EventsService.recordMany` in the same transaction (so they commit, or not, with the change). Two computes of
 * one segment at once cannot emit twice: a row is inserted or deleted once.
 */
export async function computeMembership(audience: AudienceService, events: EventsService, projectId: string, segment: SegmentDefinition): Promise<ComputeResult> {
  const label = `segment "${segment.name}" (${segment.id})`;
  const names = segmentEventNames(segment.name, segment.id);
  let entered = 0;
  let exited = 0;
  let after = '';
  for (;;) {
    const done = await audience.withTimeout(label, async (em: EntityManager) => {
      const [bound]: Array<{ id: string }> = await em.query(
        `SELECT id FROM contacts WHERE project_id = $1 AND id > $2 ORDER BY id OFFSET $3 LIMIT 1`,
        [projectId, after, COMPUTE_BATCH - 1],
      );
      const upTo = bound?.id ?? null;
      const condition = await audience.segmentCondition(projectId, segment, em);
      const rangeC = upTo === null ? sql`c.id > ${after}` : sql`c.id > ${after} AND c.id <= ${upTo}`;
      const rangeM = upTo === null ? sql`sm.contact_id > ${after}` : sql`sm.contact_id > ${after} AND sm.contact_id <= ${upTo}`;
      const statement = sql`
        WITH matching AS (
          SELECT c.id FROM contacts c WHERE c.project_id = ${projectId}::uuid AND ${rangeC} AND (${condition})
        ), joined AS (
          INSERT INTO segment_members (segment_id, contact_id) SELECT ${segment.id}::uuid, id FROM matching
          ON CONFLICT DO NOTHING RETURNING contact_id
        ), left_ AS (
          DELETE FROM segment_members sm USING contacts c
          WHERE sm.segment_id = ${segment.id}::uuid AND ${rangeM} AND c.id = sm.contact_id AND NOT (${condition})
          RETURNING contact_id
        )
        SELECT contact_id, true AS joined FROM joined UNION ALL SELECT contact_id, false FROM left_`;
      const changed: Array<{ contact_id: string; joined: boolean }> = await em.query(statement.text, statement.values);
      const data = { segmentId: segment.id, segmentName: segment.name };
      await events.recordMany(
        changed.map((r) => ({ projectId, contactId: r.contact_id, name: r.joined ? names.entry : names.exit, data })),
        em,
      );
      for (const r of changed) {
        if (r.joined) entered++;
        else exited++;
      }
      if (upTo === null) return true;
      after = upTo;
      return false;
    });
    if (done) break;
  }
  const memberCount = await audience.withTimeout(label, async (em) => {
    // An UPDATE through TypeORM answers [rows, affected].
    const [[row]] = await em.query(
      `UPDATE segments SET member_count = (SELECT count(*) FROM segment_members WHERE segment_id = $2), computed_at = now()
       WHERE project_id = $1 AND id = $2 RETURNING member_count`,
      [projectId, segment.id],
    );
    return (row?.member_count as number) ?? 0;
  });
  return { memberCount, entered, exited };
}
