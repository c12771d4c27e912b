import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { logger } from '../logging/logger';
import { isLockNotAvailable } from './pg-errors';
import { returnedRows } from './query-results';

const log = logger('history-partitions');

/** The tables partitioned by month of `created_at` (migration 1765500000000, docs/history-tables.md). */
export const HISTORY_TABLES = ['events', 'emails', 'email_contents'] as const;
export type HistoryTable = (typeof HISTORY_TABLES)[number];

/** One month partition: its table and the range `[from, to)` of `created_at` it holds. */
export interface MonthPartition {
  name: string;
  from: Date;
  to: Date;
}

/**
 * How long a partition drop may wait for its lock: DETACH takes an exclusive lock of the parent
 * for a catalogue change of milliseconds, but a waiting exclusive request queues every later
 * insert behind it. Past this the drop gives up and a later round tries again.
 */
export const PARTITION_LOCK_TIMEOUT_MS = 50;

/**
 * The month partitions of the history tables: made ahead (by the database's own
 * `history_partition_ensure`, which the migration used too), listed, and dropped whole once
 * retention lets a whole month go. Which month may go is the caller's decision (retention).
 */
@Injectable()
export class HistoryPartitions {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** This month's partition and the next `months`, of each table; answers the partitions made now. */
  async ensureAhead(months: number): Promise<string[]> {
    const made: string[] = [];
    for (const table of HISTORY_TABLES) {
      const rows: Array<{ name: string; made: boolean }> = await this.dataSource.query(
        `SELECT $1 || '_p' || to_char(m, 'YYYYMM') AS name, history_partition_ensure($1, m::date) AS made
           FROM generate_series(date_trunc('month', now() AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => $2), interval '1 month') AS m`,
        [table, months],
      );
      made.push(...rows.filter((r) => r.made).map((r) => r.name));
    }
    if (made.length) log.info({ made }, 'history partitions made ahead');
    return made;
  }

  /** The table's month partitions, oldest first (the default partition is not one). */
  async months(table: HistoryTable): Promise<MonthPartition[]> {
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
      [table],
    );
    return rows.map((r) => monthOf(table, r.name)).filter((m): m is MonthPartition => m !== null);
  }

  /**
   * The projects with rows in a partition: a loose index scan of `(project_id, created_at)`, one
   * probe per project, whatever the partition's size.
   */
  async projectsIn(partition: string): Promise<Array<string | null>> {
    const rows: Array<{ project_id: string | null }> = await this.dataSource.query(
      `WITH RECURSIVE p AS (
         (SELECT project_id FROM ${quoteIdent(partition)} WHERE project_id IS NOT NULL ORDER BY project_id LIMIT 1)
         UNION ALL
         SELECT (SELECT project_id FROM ${quoteIdent(partition)} t WHERE t.project_id > p.project_id ORDER BY t.project_id LIMIT 1)
           FROM p WHERE p.project_id IS NOT NULL
       )
       SELECT project_id FROM p WHERE project_id IS NOT NULL
       UNION ALL
       SELECT NULL WHERE EXISTS (SELECT 1 FROM ${quoteIdent(partition)} WHERE project_id IS NULL)`,
    );
    return rows.map((r) => r.project_id);
  }

  /**
   * Detaches and drops one month partition, each step waiting at most `PARTITION_LOCK_TIMEOUT_MS`
   * for its lock; false when a lock was not had (a later round tries again). A table detached
   * earlier whose drop did not get its lock is dropped here too.
   */
  async drop(table: HistoryTable, partition: string): Promise<boolean> {
    if (!monthOf(table, partition)) throw new Error(`${partition} is not a month partition of ${table}`);
    try {
      await this.bounded(async (em) => {
        const [attached] = await em.query(`SELECT 1 FROM pg_inherits WHERE inhrelid = to_regclass($1) AND inhparent = $2::regclass`, [partition, table]);
        if (attached) await em.query(`ALTER TABLE ${quoteIdent(table)} DETACH PARTITION ${quoteIdent(partition)}`);
      });
      await this.bounded((em) => em.query(`DROP TABLE IF EXISTS ${quoteIdent(partition)}`));
      log.info({ table, partition }, 'history partition dropped');
      return true;
    } catch (err) {
      if (isLockNotAvailable(err)) {
        log.info({ table, partition }, 'history partition drop postponed: its lock was busy');
        return false;
      }
      throw err;
    }
  }

  /**
   * Deletes up to `limit` of a project's rows made in `[from, before)` (from: null = since the
   * start), oldest first, in the caller's transaction: the batch inside a month that cannot go
   * whole (retention differs per project; a partition holds them all). `where` narrows the rows
   * (SQL over the table's columns, no parameters); `returning` names a column of the deleted rows
   * to answer. Answers the deleted rows' `returning` values, one per row.
   */
  async deleteBatch(
    em: EntityManager,
    table: HistoryTable,
    projectId: string,
    range: { from: Date | null; before: Date },
    limit: number,
    options: { where?: string; returning?: string } = {},
  ): Promise<unknown[]> {
    const result: unknown = await em.query(
      `DELETE FROM ${quoteIdent(table)} WHERE (id, created_at) IN (
         SELECT id, created_at FROM ${quoteIdent(table)}
          WHERE project_id = $1 AND created_at < $2 AND ($3::timestamptz IS NULL OR created_at >= $3)${options.where ? ` AND (${options.where})` : ''}
          ORDER BY created_at LIMIT $4)
       RETURNING ${options.returning ? quoteIdent(options.returning) : 'NULL'} AS value`,
      [projectId, range.before, range.from, limit],
    );
    // TypeORM answers a DELETE … RETURNING as [rows, count].
    return returnedRows<{ value: unknown }>(result).map((r) => r.value);
  }

  /** Tables detached from a history table but not dropped yet (their drop's lock was busy). */
  async detached(table: HistoryTable): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT c.relispartition AND c.relname ~ ('^' || $1 || '_p[0-9]{6}$')`,
      [table],
    );
    return rows.map((r) => r.name);
  }

  private bounded<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT set_config('lock_timeout', $1, true)`, [`${PARTITION_LOCK_TIMEOUT_MS}ms`]);
      return work(em);
    });
  }
}

/** The month a partition's name (`<table>_pYYYYMM`) stands for, or null for another table. */
export function monthOf(table: string, name: string): MonthPartition | null {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})$`).exec(name);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]) - 1;
  if (month < 0 || month > 11) return null;
  return { name, from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month + 1, 1)) };
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return `"${name}"`;
}
