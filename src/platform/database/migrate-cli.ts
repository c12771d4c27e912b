import { loadConfig } from '../../config/config';
import { startEmbeddedPostgres } from './embedded-postgres';
import { revertLastMigration, runMigrations } from './migrate';

/** Entry of `npm run migration:run|revert`: the configured database, or the embedded one in DATA_DIR. */
export async function main(command: 'run' | 'revert'): Promise<void> {
  const config = loadConfig();
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir, { sharedBuffersMb: config.embeddedDbBuffersMb });
  const url = config.databaseUrl ?? embedded!.url;
  try {
    if (command === 'run') {
      const applied = await runMigrations(url);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No pending migrations');
    } else {
      await revertLastMigration(url);
      console.log('Reverted the last migration');
    }
  } finally {
    await embedded?.stop();
  }
}
