/**
 * The statements of the embedded database's maintenance (`EmbeddedMaintenance`): PostgreSQL's
 * autovacuum does this work on its own; PGlite, one single-user session, has no autovacuum.
 */

/** A table's activity since its last vacuum and analyze (`pg_stat_user_tables`), its name quoted. */
export interface TableActivity {
  name: string;
  /** `pg_class.reltuples` (-1 before the first vacuum or analyze: 0 here). */
  tuples: number;
  deadTuples: number;
  modifiedSinceAnalyze: number;
  insertedSinceVacuum: number;
}

export const TABLE_ACTIVITY_SQL = `SELECT format('%I.%I', s.schemaname, s.relname) AS name,
    greatest(c.reltuples, 0)::float8 AS tuples, s.n_dead_tup::float8 AS "deadTuples",
    s.n_mod_since_analyze::float8 AS "modifiedSinceAnalyze", s.n_ins_since_vacuum::float8 AS "insertedSinceVacuum"
  FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
  ORDER BY s.n_dead_tup + s.n_mod_since_analyze + s.n_ins_since_vacuum DESC`;

/**
 * Merges every GIN index's pending list into the index. Without autovacuum the list (up to
 * `gin_pending_list_limit`, 4 MB) is merged only when it overflows, and every search through the
 * index reads all of it: a contacts search over 200,000 contacts took 65 ms instead of 10.
 */
export const MERGE_GIN_PENDING_SQL = `SELECT coalesce(sum(gin_clean_pending_list(i.indexrelid::regclass)), 0)::int AS pages
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
  WHERE a.amname = 'gin'`;

/** The statement for a table's work; `name` comes quoted from `TABLE_ACTIVITY_SQL`. */
export function maintenanceSql(work: 'vacuum' | 'analyze', name: string): string {
  return work === 'vacuum' ? `VACUUM (ANALYZE) ${name}` : `ANALYZE ${name}`;
}
