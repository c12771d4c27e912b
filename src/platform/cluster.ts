import cluster, { type Worker } from 'node:cluster';
import { logger } from './logging/logger';
import { reportMetricsToPrimary, serveClusterMetrics } from './metrics/cluster-metrics';

/**
 * Failed starts in a row after which the primary gives up instead of restarting in a loop. A
 * process that exits before it listens (node:cluster's `listening`: it started, migrated and
 * serves) is a failed start, however long its start took; one that listened resets the count.
 */
const MAX_FAILED_STARTS = 5;
/** How long the primary waits for its processes after forwarding a stop signal (the processes' own drain limit is 25 s). */
const STOP_TIMEOUT_MS = 30_000;

/**
 * `PROCESSES=N` (services mode): this process becomes a node:cluster primary that forks N copies
 * of the service. They share the HTTP port (the primary hands out connections) and, by role,
 * run the queue workers; everything they share lives in PostgreSQL and Redis, as with separate
 * `ROLE=api`/`ROLE=worker` processes. The primary restarts a process that dies, stops when
 * restarts keep failing, and forwards SIGINT/SIGTERM so every process drains before it exits.
 */
export function runClusterPrimary(processes: number): void {
  const log = logger('cluster');
  const startedAt = new Map<number, number>();
  const listened = new Set<number>();
  let failedStarts = 0;
  let stopping = false;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };

  cluster.on('listening', (worker: Worker) => listened.add(worker.id));

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const uptime = Date.now() - (startedAt.get(worker.id) ?? Date.now());
    const served = listened.delete(worker.id);
    startedAt.delete(worker.id);
    if (stopping) {
      if (code) exitCode = Math.max(exitCode, code);
      if (startedAt.size === 0) process.exit(exitCode);
      return;
    }
    failedStarts = served ? 0 : failedStarts + 1;
    if (failedStarts >= MAX_FAILED_STARTS) {
      log.fatal({ child: worker.process.pid, code, signal, failedStarts }, 'service processes keep failing to start; stopping');
      stop('startup failures', 1);
      return;
    }
    log.error({ child: worker.process.pid, code, signal, uptimeMs: uptime }, 'a service process exited; starting a replacement');
    fork();
  });

  const stop = (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    log.info({ reason, processes: startedAt.size }, 'stopping the service processes');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => {
      log.error({ timeoutMs: STOP_TIMEOUT_MS }, 'service processes did not stop in time; exiting');
      process.exit(1);
    }, STOP_TIMEOUT_MS).unref();
    if (startedAt.size === 0) process.exit(exitCode);
  };

  // Ctrl-C also reaches the children directly (same process group); their own handler treats
  // the forwarded signal arriving a moment later as the same press.
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  serveClusterMetrics();
  log.info({ processes }, 'starting service processes');
  for (let i = 0; i < processes; i++) fork();
}

/** In a process forked by the primary: take part in the cluster's shared duties. */
export function joinCluster(): void {
  reportMetricsToPrimary();
}
