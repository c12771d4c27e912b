import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

/**
 * Used by `npm run migration:generate` (TypeORM CLI), from the sources (ts-node) or from dist/;
 * DATABASE_URL must point at a migrated database. The entity files (under src/modules and, for
 * the tables of platform services such as idempotency keys and rate counters, src/platform) are
 * the ones the modules register (test/e2e/schema-entities.e2e-spec.ts checks that both sets agree).
 */
export default new DataSource({
  ...dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 2),
  entities: [join(__dirname, '..', '..', '**', `*.entity${__filename.endsWith('.ts') ? '.ts' : '.js'}`)],
});
