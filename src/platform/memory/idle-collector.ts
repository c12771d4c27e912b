import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { logger } from '../logging/logger';

export interface IdleCollectorOptions {
  /** How often the process looks at itself. */
  intervalMs: number;
  /** Event-loop utilisation over one interval under which the process counts as idle. */
  idleUtilization: number;
  /** Heap growth since the last collection that makes one worth it. */
  minGrowthBytes: number;
}

export const IDLE_COLLECTOR_DEFAULTS: IdleCollectorOptions = { intervalMs: 5_000, idleUtilization: 0.05, minGrowthBytes: 48 * 1024 * 1024 };

export interface IdleCollectorProbe {
  gc: () => void;
  heapUsed: () => number;
  utilization: () => number;
}

/**
 * One full garbage collection once the process falls idle with garbage left from its work.
 *
 * V8 lets an unbounded heap grow to several times its live size between full collections (the
 * cheapest way to run a load) and gives the garbage back only when its memory reducer runs,
 * which on a busy machine can be minutes after the load: the embedded service then stayed near
 * 490 MB instead of ~330. Bounding the heap instead made every request cost ~10% more CPU
 * (bench/README, "Embedded weight"). This leaves the heap alone under load and collects when
 * the event loop has been idle for an interval and the heap has grown by `minGrowthBytes` since
 * the last collection: after a load, once. It needs `gc` (node's `--expose-gc`, which `npm start`
 * passes in embedded mode: scripts/service-env.js) and does nothing without it.
 */
export function startIdleCollector(options: IdleCollectorOptions = IDLE_COLLECTOR_DEFAULTS, probe: IdleCollectorProbe | null = processProbe()): () => void {
  if (!probe) return () => undefined;
  let baseline = probe.heapUsed();
  const timer = setInterval(() => {
    const idle = probe.utilization() < options.idleUtilization;
    const used = probe.heapUsed();
    if (!idle || used - baseline < options.minGrowthBytes) return;
    const startedAt = performance.now();
    probe.gc();
    baseline = probe.heapUsed();
    logger('memory').debug({ heapBeforeMb: mb(used), heapAfterMb: mb(baseline), ms: Math.round(performance.now() - startedAt) }, 'idle collection');
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

const mb = (bytes: number): number => Math.round(bytes / 1048576);

/** This process: `gc` when node exposes it, the heap in use, the event loop's utilisation since the previous call. */
function processProbe(): IdleCollectorProbe | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return null;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return {
    gc: () => gc(),
    heapUsed: () => process.memoryUsage().heapUsed,
    utilization: () => {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, last);
      last = now;
      return utilization;
    },
  };
}
