import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';

function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}

/** Compiled builds load `dist/migrations/*.js`; ts-jest and ts-node load the sources. */
export function migrationsGlob(): string {
  const root = projectRoot();
  return __filename.endsWith('.ts') ? join(root, 'migrations', '*.ts') : join(root, 'dist', 'migrations', '*.js');
}

export function dataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    namingStrategy: new SnakeNamingStrategy(),
    migrations: [migrationsGlob()],
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    poolSize,
    extra: { max: poolSize, connectionTimeoutMillis: 30_000 },
  };
}
