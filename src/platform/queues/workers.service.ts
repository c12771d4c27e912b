import { WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Worker } from 'bullmq';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { logger } from '../logging/logger';
import { appMetrics } from '../metrics/metrics';
import { within } from '../within';

/**
 * A processor whose worker settings come from configuration or providers (which a decorator
 * cannot read) implements this; `WorkersService` calls it just before the worker starts, and the
 * processor sets them through BullMQ's public API (`worker.concurrency`, the queue's global rate
 * limit), never by rewriting the decorator's metadata.
 */
export interface ConfiguresWorker {
  configureWorker(worker: Worker): Promise<void> | void;
}

/** The host's worker, or none when @nestjs/bullmq did not register one (its getter throws then). */
function registered(host: WorkerHost): Worker[] {
  try {
    return [host.worker];
  } catch {
    return [];
  }
}

function configuresWorker(host: WorkerHost): host is WorkerHost & ConfiguresWorker {
  return typeof (host as Partial<ConfiguresWorker>).configureWorker === 'function';
}

/** Processing time of a finished job (BullMQ stamps processedOn and finishedOn in ms). */
const jobSeconds = (job: { processedOn?: number; finishedOn?: number }): number | undefined =>
  job.processedOn && job.finishedOn ? (job.finishedOn - job.processedOn) / 1000 : undefined;

/** What this needs of a Redis connection of BullMQ's: the ioredis client, whose `status` is `ready` while open. */
interface OpenableConnection {
  client: Promise<{ status: string }>;
}

/** The longest this waits for a connection's client (one still initialising counts as not open). */
const CLIENT_WAIT_MS = 200;

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
    return this.hosts().map((host) => host.worker);
  }

  private hosts(): WorkerHost[] {
    return this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost);
  }

  async onApplicationBootstrap(): Promise<void> {
    const hosts = this.hosts();
    // Every worker's connection reports its errors (a dropped database connection, say) here, also
    // in a process that runs none: an error event without a listener is an "Unhandled error".
    for (const worker of hosts.flatMap((host) => registered(host))) worker.on('error', (err) => this.log.error({ err, queue: worker.name }, 'worker error'));
    if (!this.runsWorkers) return;
    for (const host of hosts) if (configuresWorker(host)) await host.configureWorker(host.worker);
    this.started = hosts.map((host) => host.worker);
    for (const worker of this.started) {
      worker.on('failed', (job, err) => this.log.warn({ err, queue: worker.name, jobId: job?.id, attempts: job?.attemptsMade }, 'job failed'));
      worker.on('completed', (job) => appMetrics.job(worker.name, 'completed', jobSeconds(job)));
      worker.on('failed', (job) => appMetrics.job(worker.name, 'failed', job ? jobSeconds(job) : undefined));
      void worker.run().catch((err: unknown) => this.log.error({ err, queue: worker.name }, 'worker stopped'));
    }
    this.log.info({ queues: this.started.map((w) => w.name) }, 'workers started');
  }

  /**
   * The started workers unable to work now: a run loop that ended while the worker is not closing,
   * or (on Redis) one of its connections not open. The liveness probe asks this (`StuckWorkersWatch`).
   */
  async unableWorkers(): Promise<string[]> {
    const unable = await Promise.all(this.started.map(async (worker) => worker.closing === undefined && (!worker.isRunning() || !(await this.connectionsOpen(worker)))));
    return this.started.filter((_, i) => unable[i]).map((worker) => worker.name);
  }

  /** True unless a Redis connection of the worker's is not open (the PostgreSQL backend has no such state to read). */
  private async connectionsOpen(worker: Worker): Promise<boolean> {
    if (!this.config.redisUrl) return true;
    const backend = worker.getBackend() as unknown as { connection?: OpenableConnection; blockingConnection?: OpenableConnection };
    for (const connection of [backend.connection, backend.blockingConnection]) {
      if (!connection) continue;
      const client = await within(connection.client, CLIENT_WAIT_MS, null).catch(() => null);
      if (client?.status !== 'ready') return false;
    }
    return true;
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
