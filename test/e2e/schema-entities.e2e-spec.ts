import { DataSource, DataSourceOptions } from 'typeorm';
import cliDataSource from '../../src/platform/database/cli-data-source';
import { SCHEMA_DIFF_IGNORED_TABLES } from '../../src/platform/database/schema-diff';
import { startTestApp, TestApp } from '../support/app';

/**
 * A white-box suite on purpose: no API shows the database catalogue. `npm run migration:generate` on a
 * freshly migrated database must propose nothing, so every table our migrations create is
 * described by a registered entity that matches it column for column, index for index.
 */
// Not on the session fixture: it needs only the app's database (no project, no API).
describe('schema: migrations and entities agree', () => {
  let app: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    app = await startTestApp();
    dataSource = app.runtime.app.get(DataSource);
  });
  afterAll(() => app?.close());

  it('leaves migration:generate nothing to propose (the schema builder has no pending up-queries)', async () => {
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    expect(upQueries.map((q) => q.query)).toEqual([]);
  });

  it('describes every table of the public schema by a registered entity', async () => {
    const rows: Array<{ table_name: string }> = await dataSource.query(
      // A partition is part of its partitioned table (`events`, `emails`), which the entity describes.
      `SELECT c.relname AS table_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
    );
    const described = new Set(dataSource.entityMetadatas.map((m) => m.tableName));
    const undescribed = rows.map((r) => r.table_name).filter((t) => !described.has(t) && !SCHEMA_DIFF_IGNORED_TABLES.includes(t));
    expect(undescribed).toEqual([]);
  });

  it('leaves the migration CLI (entities loaded by its glob) nothing to propose either', async () => {
    // What `npm run migration:generate` runs: cli-data-source.ts's options against this database.
    const cli = new DataSource({ ...cliDataSource.options, url: app.runtime.databaseUrl, poolSize: 1, extra: { max: 1 } } as DataSourceOptions);
    await cli.initialize();
    try {
      expect(cli.entityMetadatas.map((m) => m.tableName).sort()).toEqual(dataSource.entityMetadatas.map((m) => m.tableName).sort());
      const { upQueries } = await cli.driver.createSchemaBuilder().log();
      expect(upQueries.map((q) => q.query)).toEqual([]);
    } finally {
      await cli.destroy();
    }
  });
});
