/**
 * Tables in our database that no entity of ours describes, so the migration generator's diff and
 * the schema test leave them alone: `typeorm_migrations` is TypeORM's own ledger. BullMQ's
 * PostgreSQL backend keeps its tables in the `bullmq` schema (embedded mode, and with
 * DATABASE_URL but no REDIS_URL), which the diff never looks at (it reads `public` only).
 */
export const SCHEMA_DIFF_IGNORED_TABLES: readonly string[] = ['typeorm_migrations'];
