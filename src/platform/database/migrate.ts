import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { ADVISORY_LOCKS } from './advisory-locks';

/** Runs pending migrations under a session advisory lock, so `api` and `worker` processes can boot together. */
export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = new DataSource(dataSourceOptions(url, 2));
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS.migrations]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.migrations]);
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}

export async function revertLastMigration(url: string): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions(url, 2));
  await dataSource.initialize();
  try {
    await dataSource.undoLastMigration({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}
