import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { DeadlineBoundClient } from './deadline-client';
import { projectRoot } from './project-root';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** Compiled builds load `dist/migrations/*.js`; ts-jest and ts-node load the sources. */
export function migrationsGlob(): string {
  const root = projectRoot();
  return __filename.endsWith('.ts') ? join(root, 'migrations', '*.ts') : join(root, 'dist', 'migrations', '*.js');
}

/**
 * `connectTimeoutMs` bounds opening a connection and waiting for a free one (a silent database
 * must not hold a caller for long); TCP keepalive finds connections a partition left dead, in
 * time; `readTimeoutMs` (0: none) bounds every statement outside a request (whose deadline bounds
 * its own), and the connection of one that ran out is closed (`DeadlineBoundClient`).
 */
export function dataSourceOptions(url: string, poolSize = 10, connectTimeoutMs = 30_000, readTimeoutMs = 0): DataSourceOptions {
  const extra = poolOptions(poolSize, connectTimeoutMs, readTimeoutMs);
  return {
    type: 'postgres',
    url,
    namingStrategy: new SnakeNamingStrategy(),
    migrations: [migrationsGlob()],
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    poolSize,
    extra,
  };
}

/** A pg `Pool`'s settings as above: the data source's pool and the priority lane (`PriorityLane`) share them. */
export function poolOptions(size: number, connectTimeoutMs: number, readTimeoutMs: number) {
  return { max: size, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true, Client: DeadlineBoundClient, ...(readTimeoutMs > 0 ? { query_timeout: readTimeoutMs } : {}) };
}
