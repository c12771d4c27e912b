import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { queueConnection } from '../queues/queues.module';
import { QueueSchemaStore } from './queue-schema.store';
import { ReadinessRegistry } from './readiness.registry';

/**
 * The platform's own readiness checks: the queue backend answers (Redis PING, or BullMQ's
 * migration ledger in the database for the PostgreSQL backend), and the outbox directory is
 * writable. The SENDING module replaces `transport` with a check of the configured transport.
 *
 * Why not a BullMQ Queue: a Queue bootstraps its PostgreSQL backend at construction, and in
 * embedded mode one built during module init can wait forever on the shared PGlite session.
 */
@Injectable()
export class BuiltinReadinessChecks implements OnModuleInit, OnApplicationShutdown {
  private redis?: Redis;
  /** The connection attempt in flight: concurrent first probes share it instead of pinging a half-open client. */
  private connecting?: Promise<void>;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly queueSchema: QueueSchemaStore,
    private readonly registry: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register('queue', () => (this.config.redisUrl ? this.pingRedis() : this.checkPostgresBackend()));
    // A default only: a transport check registered by the sending module wins, whichever starts first.
    if (this.config.email.transport === 'outbox' && !this.registry.has('transport')) {
      this.registry.register('transport', async () => {
        const dir = join(this.config.dataDir, 'outbox');
        await mkdir(dir, { recursive: true });
        await access(dir, constants.W_OK);
        return { transport: 'outbox' };
      });
    }
  }

  private async pingRedis(): Promise<Record<string, unknown>> {
    // Created on first use, so processes that are never probed hold no extra connection.
    const redis = (this.redis ??= new Redis({
      ...(queueConnection(this.config, '') as object),
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      commandTimeout: this.config.outage.redisCommandTimeoutMs,
      socketTimeout: this.config.outage.redisCommandTimeoutMs,
      // Never reopened by itself: a failed probe drops the client and the next one makes a new one.
      retryStrategy: () => null,
    }));
    try {
      if (redis.status !== 'ready') {
        this.connecting ??= (redis.status === 'wait' ? redis.connect() : new Promise<void>((resolve, reject) => {
          redis.once('ready', () => resolve());
          redis.once('error', reject);
          redis.once('end', () => reject(new Error('Connection is closed.')));
        })).finally(() => (this.connecting = undefined));
        await this.connecting;
      }
      await redis.ping();
    } catch (err) {
      // A half-open connection stays silent for good: the next probe starts over on a new one.
      if (this.redis === redis) {
        this.redis = undefined;
        redis.disconnect();
      }
      throw err;
    }
    return { backend: 'redis' };
  }

  private async checkPostgresBackend(): Promise<Record<string, unknown>> {
    return { backend: 'postgres', schemaVersion: await this.queueSchema.version() };
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}
