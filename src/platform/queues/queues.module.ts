import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { QueueOptions } from 'bullmq';
import type { AppConfig } from '../../config/config';
import { QUEUE_SCHEMA } from '../database/embedded-postgres';
import { DEFAULT_JOB_OPTIONS } from './queues';
import { WorkersService } from './workers.service';

/** Longest wait between two attempts to reopen a Redis connection (BullMQ's own grows to 20 s). */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * With REDIS_URL, BullMQ runs on Redis; without it, on its PostgreSQL backend in our database.
 * The backend itself is chosen process-wide before the app is built (see `runtime.ts`).
 *
 * A Redis connection a partition left half-open never errors by itself: one that has a command
 * waiting and hears nothing for `REDIS_SOCKET_TIMEOUT_MS` is dropped and reopened (and its
 * commands sent again), and reopening retries at least every 2 s, so the queues resume soon
 * after Redis answers again. TCP keepalive finds dead peers on idle connections.
 */
export function queueConnection(config: AppConfig, databaseUrl: string): QueueOptions['connection'] {
  if (config.redisUrl) {
    const url = new URL(config.redisUrl);
    return {
      host: url.hostname,
      port: Number(url.port || 6379),
      username: url.username || undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
      db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
      tls: url.protocol === 'rediss:' ? {} : undefined,
      maxRetriesPerRequest: null,
      keepAlive: 10_000,
      connectTimeout: 5_000,
      socketTimeout: config.outage.redisSocketTimeoutMs,
      retryStrategy: (times: number) => Math.min(times * 500, MAX_RECONNECT_DELAY_MS),
    };
  }
  return { connectionString: databaseUrl, schema: QUEUE_SCHEMA, migrate: true, max: 4 } as unknown as QueueOptions['connection'];
}

@Global()
@Module({})
export class QueuesModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: QueuesModule,
      imports: [
        DiscoveryModule,
        BullModule.forRoot({
          connection: queueConnection(config, databaseUrl),
          prefix: config.redisUrl ? config.redisPrefix : undefined,
          defaultJobOptions: DEFAULT_JOB_OPTIONS,
        }),
      ],
      providers: [WorkersService],
      exports: [BullModule, WorkersService],
    };
  }
}
