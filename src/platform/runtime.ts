import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createPostgresBackend, setDefaultBackendFactory } from 'bullmq';
import { AppModule } from '../app.module';
import type { AppConfig } from '../config/config';
import { EmbeddedPostgres, startEmbeddedPostgres } from './database/embedded-postgres';
import { runMigrations } from './database/migrate';
import { configureHttp } from './http/configure-http';
import { configureLogger, PinoNestLogger } from './logging/logger';

export interface Runtime {
  app: INestApplication;
  config: AppConfig;
  databaseUrl: string;
  /** Stops HTTP, drains workers, closes connections, then the embedded database. */
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  /** Embedded mode only: keep the database in memory instead of `$DATA_DIR/db` (tests). */
  inMemoryDatabase?: boolean;
  /** With `inMemoryDatabase`: the archive to start the database from (tests pass one already migrated). */
  inMemoryImage?: Blob;
}

/** Starts the database (embedded when DATABASE_URL is unset), migrates, and builds the Nest app. */
export async function createRuntime(config: AppConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  configureLogger(config.logLevel);
  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(options.inMemoryDatabase ? undefined : config.dataDir, { sharedBuffersMb: config.embeddedDbBuffersMb, image: options.inMemoryImage });
    databaseUrl = embedded.url;
  }
  try {
    // Queue classes read the process-wide backend when constructed, so choose it first.
    setDefaultBackendFactory(config.redisUrl ? undefined : (createPostgresBackend as never));
    await runMigrations(databaseUrl);
    const app = await NestFactory.create(AppModule.forRoot({ config, databaseUrl }), {
      logger: new PinoNestLogger(),
      bodyParser: false,
      abortOnError: false,
    });
    configureHttp(app, config);
    let stopped = false;
    return {
      app,
      config,
      databaseUrl,
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          await app.close();
        } finally {
          await embedded?.stop();
        }
      },
    };
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}
