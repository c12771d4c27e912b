import 'reflect-metadata';
import cluster from 'node:cluster';
import { getPriority, setPriority } from 'node:os';
import type { Server } from 'node:http';
import { ConfigError, loadConfig } from './config/config';
import { joinCluster, runClusterPrimary } from './platform/cluster';
import { configureLogger, logger } from './platform/logging/logger';
import { startIdleCollector } from './platform/memory/idle-collector';
import { startTelemetry, stopTelemetry } from './platform/telemetry/telemetry';

/**
 * Stops accepting connections and waits for in-flight requests, before any module shuts down
 * (Nest runs its destroy hooks before closing the listener, which would pull services out from
 * under requests still running). Keep-alive connections are closed as soon as they fall idle.
 */
function drainHttp(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(idle);
      resolve();
    });
  });
}

/**
 * `WORKER_NICE`: a worker process (`ROLE=worker`) lowers its own scheduling priority, so that on
 * shared cores the API processes win the CPU and its jobs use what they leave.
 */
function lowerPriority(increment: number): void {
  if (increment <= 0) return;
  try {
    setPriority(Math.min(19, getPriority() + increment));
  } catch (err) {
    process.stderr.write(`WORKER_NICE: could not lower the priority (${(err as Error).message}); running at the usual one\n`);
  }
}

/** Upper bound for draining requests and jobs after SIGINT/SIGTERM (compose's stop_grace_period is longer). */
const SHUTDOWN_TIMEOUT_MS = 25_000;

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
  // Set before the cluster forks: its processes inherit the priority.
  if (config.role === 'worker' && cluster.isPrimary) lowerPriority(config.workerNice);
  if (config.processes > 1 && cluster.isPrimary) {
    configureLogger(config.logLevel);
    runClusterPrimary(config.processes);
    return;
  }
  if (cluster.isWorker) joinCluster();
  const startedAt = Date.now();
  startTelemetry(config.telemetry, config.role);
  // Required only now, so that OpenTelemetry's instrumentations (when on) patch pg, ioredis and express as they load.
  const { createRuntime } = require('./platform/runtime') as typeof import('./platform/runtime');
  const runtime = await createRuntime(config);
  await runtime.app.listen(config.port, config.host);
  startIdleCollector();
  const log = logger('main');
  log.info(
    { port: config.port, role: config.role, database: config.databaseUrl ? 'postgres' : 'embedded', queues: config.redisUrl ? 'redis' : 'postgres', startupMs: Date.now() - startedAt },
    `Mailroom listening on ${config.publicUrl}`,
  );

  let stoppingSince = 0;
  const stop = (signal: string) => {
    if (stoppingSince) {
      // Ctrl-C reaches both `npm start`'s wrapper (which forwards it) and this process, so a
      // repeat within a moment is the same press; a later one means "now": skip the drain.
      if (Date.now() - stoppingSince < 2_000) return;
      log.warn({ signal }, 'second signal: exiting without waiting for the drain');
      process.exit(130);
    }
    stoppingSince = Date.now();
    log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    // Jobs hold their queue lock while they run; a job cut off here is retried by another worker.
    setTimeout(() => {
      log.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    drainHttp(runtime.app.getHttpServer() as Server)
      .then(() => runtime.stop())
      .then(() => stopTelemetry())
      .then(() => {
        log.info({ shutdownMs: Date.now() - stoppingSince }, 'stopped cleanly');
        process.exit(0);
      })
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
