import { WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Worker } from 'bullmq';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { logger } from '../logging/logger';

/** Starts the declared workers when this process's ROLE runs them, and drains them on shutdown. */
@Injectable()
export class WorkersService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = logger('workers');
  private started: Worker[] = [];

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
  ) {}

  get runsWorkers(): boolean {
    return this.config.role !== 'api';
  }

  workers(): Worker[] {
    return this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost)
      .map((host) => host.worker);
  }

  onApplicationBootstrap(): void {
    if (!this.runsWorkers) return;
    this.started = this.workers();
    for (const worker of this.started) {
      worker.on('error', (err) => this.log.error({ err, queue: worker.name }, 'worker error'));
      worker.on('failed', (job, err) => this.log.warn({ err, queue: worker.name, jobId: job?.id, attempts: job?.attemptsMade }, 'job failed'));
      void worker.run().catch((err: unknown) => this.log.error({ err, queue: worker.name }, 'worker stopped'));
    }
    this.log.info({ queues: this.started.map((w) => w.name) }, 'workers started');
  }

  /**
   * Waits for active jobs to finish; nothing new is taken once closing starts. Runs before the
   * queues and the database close (their hooks are `onApplicationShutdown`), so a finishing job
   * can still write its outcome and enqueue follow-up work.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.started.map((worker) => worker.close()));
    this.started = [];
  }
}
