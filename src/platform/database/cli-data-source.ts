import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

/** Used by `npm run migration:generate` (TypeORM CLI); needs DATABASE_URL pointing at a migrated database. */
export default new DataSource({
  ...dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 2),
  entities: [__dirname + '/../../modules/**/*.entity.ts'],
});
