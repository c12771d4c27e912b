import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '../../platform/database/query-results';
import { empty, Fragment, sql } from '../../platform/database/sql-fragment';

/** A keyset position in the project's contacts by creation (`created_at` as exact PostgreSQL text). */
export interface ContactBound {
  createdAt: string;
  id: string;
}

/**
 * The `segment_members` table. Its rows carry no project: every method takes the project and a
 * segment id its caller loaded for that project, and its statements over contacts keep to the project.
 */
@Injectable()
export class SegmentMembersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds the contacts (of the project) to the segment; answers the ones not members before. */
  async add(projectId: string, segmentId: string, contactIds: string[], manager?: EntityManager): Promise<string[]> {
    const inserted: Array<{ contact_id: string }> = await (manager ?? this.dataSource.manager).query(
      `INSERT INTO segment_members (segment_id, contact_id)
       SELECT s.id, unnest($2::text[]) FROM segments s WHERE s.id = $1::uuid AND s.project_id = $3
       ON CONFLICT DO NOTHING RETURNING contact_id`,
      [segmentId, contactIds, projectId],
    );
    return inserted.map((row) => row.contact_id);
  }

  /** Removes the contacts from the segment; answers how many were members. */
  async remove(projectId: string, segmentId: string, contactIds: string[], manager?: EntityManager): Promise<number> {
    const [, removed]: [unknown[], number] = await (manager ?? this.dataSource.manager).query(
      `DELETE FROM segment_members WHERE segment_id = $1 AND contact_id = ANY($2::text[])
         AND segment_id IN (SELECT id FROM segments WHERE id = $1 AND project_id = $3)`,
      [segmentId, contactIds, projectId],
    );
    return removed;
  }

  /** Removes the contact from every segment of the project (its erasure); answers how many memberships went. */
  async removeContact(projectId: string, contactId: string, manager?: EntityManager): Promise<number> {
    const [, removed]: [unknown[], number] = await (manager ?? this.dataSource.manager).query(
      `DELETE FROM segment_members m USING segments s WHERE m.contact_id = $2 AND s.id = m.segment_id AND s.project_id = $1`,
      [projectId, contactId],
    );
    return removed;
  }

  /** Forgets the segment's stored membership. */
  async clear(projectId: string, segmentId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `DELETE FROM segment_members WHERE segment_id = $1 AND segment_id IN (SELECT id FROM segments WHERE id = $1 AND project_id = $2)`,
      [segmentId, projectId],
    );
  }

  /**
   * Joins of a compute, one batch: the contact `batch` rows on from `after` in creation order
   * (null: the end of the contacts), and the contacts in (after, bound] passing `condition`
   * inserted as members (the ones that joined come back).
   */
  async joinBatch(
    projectId: string,
    segmentId: string,
    condition: Fragment,
    after: ContactBound | null,
    batch: number,
    manager: EntityManager,
  ): Promise<{ joined: string[]; bound: ContactBound | null }> {
    // The plain created_at bounds beside the row comparisons give the planner a true row estimate (and the index).
    const from = after ? sql`AND c.created_at >= ${after.createdAt}::timestamptz AND (c.created_at, c.id) > (${after.createdAt}::timestamptz, ${after.id}::text)` : empty;
    const boundQuery = sql`SELECT c.created_at::text AS created_at, c.id FROM contacts c WHERE c.project_id = ${projectId}::uuid ${from}
      ORDER BY c.created_at, c.id OFFSET ${batch - 1} LIMIT 1`;
    const [bound]: Array<{ created_at: string; id: string }> = await manager.query(boundQuery.text, boundQuery.values);
    const to = bound ? sql`AND c.created_at <= ${bound.created_at}::timestamptz AND (c.created_at, c.id) <= (${bound.created_at}::timestamptz, ${bound.id}::text)` : empty;
    const statement = sql`
      INSERT INTO segment_members (segment_id, contact_id)
      SELECT ${segmentId}::uuid, c.id FROM contacts c WHERE c.project_id = ${projectId}::uuid ${from} ${to} AND (${condition})
      ON CONFLICT DO NOTHING RETURNING contact_id`;
    const rows = returnedRows<{ contact_id: string }>(await manager.query(statement.text, statement.values));
    return { joined: rows.map((r) => r.contact_id), bound: bound ? { createdAt: bound.created_at, id: bound.id } : null };
  }

  /**
   * Leaves of a compute, one batch: the member `batch` rows on from `afterId` by contact id (null:
   * the end of the members), and the members in (afterId, bound] no longer passing `condition`
   * deleted (the ones that left come back).
   */
  async leaveBatch(
    projectId: string,
    segmentId: string,
    condition: Fragment,
    afterId: string,
    batch: number,
    manager: EntityManager,
  ): Promise<{ left: string[]; bound: string | null }> {
    const [bound]: Array<{ contact_id: string }> = await manager.query(
      `SELECT contact_id FROM segment_members WHERE segment_id = $1 AND contact_id > $2 ORDER BY contact_id OFFSET $3 LIMIT 1`,
      [segmentId, afterId, batch - 1],
    );
    const range = bound ? sql`sm.contact_id > ${afterId} AND sm.contact_id <= ${bound.contact_id}` : sql`sm.contact_id > ${afterId}`;
    const statement = sql`
      DELETE FROM segment_members sm USING contacts c
      WHERE sm.segment_id = ${segmentId}::uuid AND ${range} AND c.id = sm.contact_id AND c.project_id = ${projectId}::uuid AND NOT (${condition})
      RETURNING sm.contact_id`;
    // A DELETE through TypeORM answers [rows, affected].
    const rows = returnedRows<{ contact_id: string }>(await manager.query(statement.text, statement.values));
    return { left: rows.map((r) => r.contact_id), bound: bound?.contact_id ?? null };
  }
}
