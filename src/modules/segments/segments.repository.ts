import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Fragment } from '../../platform/database/sql-fragment';
import type { ContactRow } from '../contacts';
import type { SegmentDefinition } from '../filters';
import { Segment } from './entities/segment.entity';

/**
 * The `segments` table, and the filter engine's statements over `contacts c` under a compiled
 * audience condition (one set-based statement each, docs/architecture.md).
 */
@Injectable()
export class SegmentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(projectId: string, values: Omit<Partial<Segment>, 'projectId'>): Promise<Segment> {
    const repo = this.dataSource.getRepository(Segment);
    return repo.save(repo.create({ ...values, projectId }));
  }

  list(projectId: string): Promise<Segment[]> {
    return this.dataSource.getRepository(Segment).find({ where: { projectId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  findById(projectId: string, id: string): Promise<Segment | null> {
    return this.dataSource.getRepository(Segment).findOne({ where: { projectId, id } });
  }

  async update(projectId: string, id: string, changes: Partial<Segment>, manager?: EntityManager): Promise<void> {
    const repo = (manager ?? this.dataSource.manager).getRepository(Segment);
    await repo.update({ projectId, id }, changes as Parameters<typeof repo.update>[1]);
  }

  async remove(projectId: string, id: string): Promise<void> {
    await this.dataSource.getRepository(Segment).delete({ projectId, id });
  }

  async hasAny(projectId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM segments WHERE project_id = $1 LIMIT 1`, [projectId]);
    return rows.length > 0;
  }

  /** The project's segments whose condition passes `test` (a condition over `s.condition`, its parameters from $2). */
  referencing(projectId: string, test: { sql: string; params: unknown[] }): Promise<Array<{ id: string; name: string }>> {
    return this.dataSource.query(`SELECT s.id::text AS id, s.name FROM segments s WHERE s.project_id = $1 AND (${test.sql}) LIMIT 1000`, [projectId, ...test.params]);
  }

  /** The next segment by id after `afterId` (null: the first), of any project: the background recompute's walk. */
  async nextAcrossProjects(afterId: string | null): Promise<{ id: string; project_id: string } | null> {
    const rows: Array<{ id: string; project_id: string }> = await this.dataSource.query(
      `SELECT id::text, project_id::text FROM segments WHERE ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT 1`,
      [afterId],
    );
    return rows[0] ?? null;
  }

  async definition(projectId: string, id: string, manager?: EntityManager): Promise<SegmentDefinition | null> {
    const rows: SegmentDefinition[] = await (manager ?? this.dataSource.manager).query(
      `SELECT id::text, name, type, condition FROM segments WHERE project_id = $1 AND id = $2`,
      [projectId, id],
    );
    return rows[0] ?? null;
  }

  definitions(projectId: string, ids: string[], manager?: EntityManager): Promise<SegmentDefinition[]> {
    return (manager ?? this.dataSource.manager).query(`SELECT id::text, name, type, condition FROM segments WHERE project_id = $1 AND id = ANY($2::uuid[])`, [
      projectId,
      ids,
    ]);
  }

  async storeMemberCount(projectId: string, id: string, memberCount: number): Promise<void> {
    await this.dataSource.query(`UPDATE segments SET member_count = $3 WHERE project_id = $1 AND id = $2`, [projectId, id, memberCount]);
  }

  /** `member_count` from the stored members (a STATIC segment's), in the caller's transaction; `updated_at` kept. */
  async storeStoredMemberCount(projectId: string, id: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE segments SET member_count = (SELECT count(*) FROM segment_members WHERE segment_id = $2), updated_at = updated_at WHERE project_id = $1 AND id = $2`,
      [projectId, id],
    );
  }

  /** After a compute: `member_count` from the stored members and `computed_at`; answers the count. */
  async storeComputed(projectId: string, id: string, manager: EntityManager): Promise<number> {
    // An UPDATE through TypeORM answers [rows, affected].
    const [[row]] = await manager.query(
      `UPDATE segments SET member_count = (SELECT count(*) FROM segment_members WHERE segment_id = $2), computed_at = now()
       WHERE project_id = $1 AND id = $2 RETURNING member_count`,
      [projectId, id],
    );
    return (row?.member_count as number) ?? 0;
  }

  /** Statements of the caller's transaction stop after `timeoutMs`; JIT off (see AudienceService.withTimeout). */
  async limitStatements(timeoutMs: number, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT set_config('statement_timeout', $1, true), set_config('jit', 'off', true)`, [`${timeoutMs}ms`]);
  }

  /** How many contacts pass `where` (a project-scoped condition over `c`). */
  async countAudience(projectId: string, where: Fragment, manager: EntityManager): Promise<number> {
    const [row] = await manager.query(`SELECT count(*)::int AS n FROM contacts c WHERE ${where.text}`, where.values);
    return row.n as number;
  }

  /** A page of the contacts passing `where` (project-scoped, over `c`), newest first. */
  audiencePage(projectId: string, where: Fragment, page: { limit: number; offset: number }, manager: EntityManager): Promise<ContactRow[]> {
    const n = where.values.length;
    return manager.query(
      `SELECT c.id, c.project_id, c.email, c.subscribed, c.data, c.topics, c.snoozed_until, c.created_at, c.updated_at FROM contacts c WHERE ${where.text}
       ORDER BY c.created_at DESC, c.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.values, page.limit, page.offset],
    );
  }
}
