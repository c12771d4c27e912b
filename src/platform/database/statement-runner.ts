import { createHash, randomBytes } from 'node:crypto';
import type { Pool, QueryConfig, QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from './query-results';

interface Queryable {
  query(config: QueryConfig): Promise<QueryResult>;
}

/**
 * Runs hot statements without re-planning them on every call; planning a CTE statement of some
 * size costs more than executing it (the contact upsert, embedded: ~3.5 ms of ~4.5 ms).
 * - PostgreSQL: protocol-level named statements, prepared once per pooled connection (inside a
 *   caller's transaction, on that transaction's connection).
 * - Embedded PGlite: every connection shares one session, so per-connection statement names
 *   would collide and `EXECUTE` takes no bind parameters there; the statement is `PREPARE`d once
 *   per process under a unique name and executed with quoted literals (`standard_conforming_strings`
 *   on, so doubling single quotes is the whole escaping rule; values are strings, finite
 *   numbers, booleans, null, valid Dates or arrays of strings).
 *   Inside a caller's transaction both run on the caller's connection (a `PREPARE` is not undone
 *   by a rollback).
 * One per process (its statement names are per process), provided by `DatabaseModule`: inject it.
 */
export class StatementRunner {
  private readonly names = new Map<string, string>();
  /** Whether statements may carry quoted literals (embedded), once a caller's connection answered. */
  private inlineLiterals: boolean | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly embedded: boolean,
  ) {}

  async run<T>(sql: string, params: unknown[], manager?: EntityManager): Promise<T[]> {
    const runner = manager?.queryRunner;
    if (!this.embedded) {
      // The transaction's own pg client, or the pool for a statement of its own.
      const client: Queryable = runner ? await runner.connect() : (this.dataSource.driver as unknown as { master: Pool }).master;
      const result = await client.query({ name: this.nameOf(sql), text: sql, values: params });
      return result.rows as T[];
    }
    const target = manager ?? this.dataSource;
    // TypeORM answers an UPDATE/DELETE with `[rows, affectedCount]`: the rows, as from PostgreSQL.
    // A NUL cannot be quoted into a literal: such a call runs with bind parameters, unprepared,
    // so the database answers it as it answers any statement (NUL in text: 22021, a 422).
    if (!(await this.canInline(target)) || params.some(holdsNul)) return returnedRows<T>(await target.query(sql, params));
    let name = this.names.get(sql);
    if (!name) {
      name = `${this.nameOf(sql)}_${randomBytes(4).toString('hex')}`;
      await target.query(`PREPARE ${name} AS ${sql}`);
      this.names.set(sql, name);
    }
    return returnedRows<T>(await target.query(`EXECUTE ${name}(${params.map(literal).join(', ')})`));
  }

  private nameOf(sql: string): string {
    let name = this.names.get(`#${sql}`);
    if (!name) {
      name = `stmt_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
      this.names.set(`#${sql}`, name);
    }
    return name;
  }

  /**
   * Asked on the caller's connection, and only the answer is kept: a caller inside a transaction
   * must never wait for the question another caller asked on another connection, which the one
   * PGlite session holds until that very transaction ends (both would hang).
   */
  private async canInline(target: DataSource | EntityManager): Promise<boolean> {
    if (this.inlineLiterals !== undefined) return this.inlineLiterals;
    try {
      const rows: Array<{ standard_conforming_strings: string }> = await target.query(`SHOW standard_conforming_strings`);
      this.inlineLiterals = rows[0]?.standard_conforming_strings === 'on';
      return this.inlineLiterals;
    } catch {
      // E.g. asked inside a failed transaction: a plain query this time, ask again next time.
      return false;
    }
  }
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  return Array.isArray(value) && value.some((v) => String(v).includes('\u0000'));
}

function quote(value: string): string {
  if (value.includes('\u0000')) throw new Error('NUL in a statement literal');
  return `'${value.replace(/'/g, "''")}'`;
}

export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  // As node-postgres sends a Date: an ISO timestamp with its zone (the statement casts it where needed).
  if (value instanceof Date && Number.isFinite(value.getTime())) return quote(value.toISOString());
  // As node-postgres sends an array: an untyped array literal, which takes the type the statement
  // gives its parameter (text[], uuid[], …). Each element double-quoted, `\` and `"` escaped.
  if (Array.isArray(value)) return quote(`{${value.map((v) => `"${String(v).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`);
  throw new Error(`unsupported statement literal of type ${typeof value}`);
}
