import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Measures of a project's share of a table, for the storage view: the tables and columns are
 * the ones their owners registered (`RetentionRegistry.registerTable`), never input. Each read is
 * bounded: a count reads at most `cap + 1` index entries, an estimate and the sizes read only the
 * catalogs.
 */
@Injectable()
export class DataHeldRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The project's rows up to `cap + 1`, read through an index led by `project_id`. */
  async countUpTo(table: string, projectId: string, cap: number): Promise<number> {
    const [row] = (await this.dataSource.query(`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${quoteIdent(table)} WHERE project_id = $1 LIMIT ${Math.floor(cap) + 1}) x`, [projectId])) as Array<{ n: number }>;
    return row.n;
  }

  /** The planner's estimate of the project's rows (its statistics of `project_id`), read without touching the table. */
  async plannedCount(table: string, projectId: string): Promise<number> {
    const rows = (await this.dataSource.query(`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${quoteIdent(table)} WHERE project_id = $1`, [projectId])) as Array<{ 'QUERY PLAN': unknown }>;
    const raw = rows[0]?.['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan?: { 'Plan Rows'?: number } }>;
    return Math.round(plan[0]?.Plan?.['Plan Rows'] ?? 0);
  }

  /** The oldest value of `column` among the project's rows (an index led by `project_id` orders it). */
  async oldest(table: string, column: string, projectId: string): Promise<Date | null> {
    const [row] = (await this.dataSource.query(`SELECT min(${quoteIdent(column)}) AS at FROM ${quoteIdent(table)} WHERE project_id = $1`, [projectId])) as Array<{ at: Date | null }>;
    return row.at === null ? null : new Date(row.at);
  }

  /** The average width in bytes of up to 100 of the table's rows, any project's (`pg_column_size` of the row): the fallback where the sizes on disk are not known. */
  async sampledRowBytes(table: string): Promise<number> {
    const [row] = (await this.dataSource.query(`SELECT coalesce(avg(pg_column_size(x.*)), 0)::float8 AS width FROM (SELECT * FROM ${quoteIdent(table)} LIMIT 100) x`)) as Array<{ width: number }>;
    return Number(row.width);
  }

  /**
   * The table's bytes on disk (heap, TOAST and indexes, every partition) and the rows they hold as
   * the statistics know them (`reltuples` after an ANALYZE, else the live rows counted by the
   * statistics collector).
   */
  async tableSize(table: string): Promise<{ bytes: number; rows: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT coalesce(sum(pg_total_relation_size(t.relid)), 0)::float8 AS bytes,
              coalesce(sum(greatest(c.reltuples, 0)), 0)::float8 AS tuples,
              coalesce(sum(s.n_live_tup), 0)::float8 AS live
         FROM pg_partition_tree($1::regclass) t
         JOIN pg_class c ON c.oid = t.relid
         LEFT JOIN pg_stat_user_tables s ON s.relid = t.relid`,
      [table],
    )) as Array<{ bytes: number; tuples: number; live: number }>;
    return { bytes: Number(row.bytes), rows: Math.max(Number(row.tuples), Number(row.live)) };
  }
}
