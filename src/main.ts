import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config';
import { logger } from './platform/logging/logger';
import { createRuntime } from './platform/runtime';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const startedAt = Date.now();
  const runtime = await createRuntime(config);
  await runtime.app.listen(config.port, config.host);
  const log = logger('main');
  log.info(
    { port: config.port, role: config.role, database: config.databaseUrl ? 'postgres' : 'embedded', queues: config.redisUrl ? 'redis' : 'postgres', startupMs: Date.now() - startedAt },
    `Mailroom listening on ${config.publicUrl}`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    runtime
      .stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  logger('main').fatal({ err }, 'failed to start');
  process.exit(1);
});
