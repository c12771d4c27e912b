import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { affectedCount } from '../../platform/database/query-results';
import { empty, type Fragment, join, sql } from '../../platform/database/sql-fragment';
import type { AuditEntryRow, AuditFilter, NewAuditEntry } from './audit-log.rows';

interface DbRow {
  id: string;
  actor_type: AuditEntryRow['actorType'];
  actor_id: string;
  actor_email: string | null;
  action: AuditEntryRow['action'];
  target_type: AuditEntryRow['targetType'];
  target_id: string;
  changes: string[] | null;
  ip: string | null;
  at: Date;
  at_key: string;
}

const toRow = (r: DbRow): AuditEntryRow => ({
  id: r.id,
  actorType: r.actor_type,
  actorId: r.actor_id,
  actorEmail: r.actor_email,
  action: r.action,
  targetType: r.target_type,
  targetId: r.target_id,
  changes: r.changes,
  ip: r.ip,
  at: new Date(r.at),
  atKey: r.at_key,
});

/** `audit_log`: every read takes the project first; the purge alone works across projects. */
@Injectable()
export class AuditLogRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(entry: NewAuditEntry): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO audit_log (project_id, actor_type, actor_id, actor_email, action, target_type, target_id, changes, ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [entry.projectId, entry.actorType, entry.actorId, entry.actorEmail, entry.action, entry.targetType, entry.targetId, entry.changes, entry.ip],
    );
  }

  /**
   * A page newest first (`at DESC, id`: the order of `audit_log_project_at_idx`), after the
   * cursor's entry; `limit + 1` rows, so the caller knows whether more follow. With `withTotal`,
   * the count of every entry the filter matches.
   */
  async page(projectId: string, filter: AuditFilter, after: { v: string; id: string } | null, limit: number, withTotal: boolean): Promise<{ rows: AuditEntryRow[]; total: number }> {
    const conditions: Fragment[] = [sql`project_id = ${projectId}::uuid`];
    if (filter.action) conditions.push(sql`action = ${filter.action}`);
    if (filter.actorId) conditions.push(sql`actor_id = ${filter.actorId}`);
    if (filter.from) conditions.push(sql`at >= ${filter.from.toISOString()}::timestamptz`);
    // Through the whole millisecond: the list shows `at` to the millisecond, the column holds microseconds.
    if (filter.to) conditions.push(sql`at < ${new Date(filter.to.getTime() + 1).toISOString()}::timestamptz`);
    const where = join(conditions, ' AND ');
    const keyset = after ? sql` AND (at < ${after.v}::timestamptz OR (at = ${after.v}::timestamptz AND id > ${after.id}::uuid))` : empty;
    const page = sql`SELECT id, actor_type, actor_id, actor_email, action, target_type, target_id, changes, ip, at, at::text AS at_key
      FROM audit_log WHERE ${where}${keyset} ORDER BY at DESC, id LIMIT ${limit + 1}`;
    const rows: DbRow[] = await this.dataSource.query(page.text, page.values);
    let total = 0;
    if (withTotal) {
      const count = sql`SELECT count(*)::int AS n FROM audit_log WHERE ${where}`;
      total = ((await this.dataSource.query(count.text, count.values)) as Array<{ n: number }>)[0].n;
    }
    return { rows: rows.map(toRow), total };
  }

  /** Deletes up to `limit` entries older than `before`, oldest first, across projects; how many went. */
  async purgeOlderThan(before: Date, limit: number): Promise<number> {
    const result: unknown = await this.dataSource.query(
      `DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 ORDER BY at LIMIT $2)`,
      [before, limit],
    );
    return affectedCount(result);
  }
}
