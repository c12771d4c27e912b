import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { QUEUES } from '../queues/queues';
import { ReadinessRegistry } from './readiness.registry';

/**
 * The platform's own readiness checks: the queue backend answers a real BullMQ operation
 * (Redis, or the PostgreSQL backend in embedded mode), and the outbox directory is writable.
 * The SENDING module replaces `transport` with a check of the configured transport.
 */
@Injectable()
export class BuiltinReadinessChecks implements OnModuleInit {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectQueue(QUEUES.maintenance) private readonly queue: Queue,
    private readonly registry: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register('queue', async () => {
      await this.queue.getJobCounts('waiting');
      return { backend: this.config.redisUrl ? 'redis' : 'postgres' };
    });
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
}
