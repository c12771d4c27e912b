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
  const collector: Collector = { probe, baseline: probe.heapUsed(), minGrowthBytes: options.minGrowthBytes };
  active = collector;
  const timer = setInterval(() => {
    if (probe.utilization() < options.idleUtilization) collectIfGrown(collector, 'idle collection');
  }, options.intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (active === collector) active = null;
  };
}

interface Collector {
  probe: IdleCollectorProbe;
  /** The heap in use after the last collection. */
  baseline: number;
  minGrowthBytes: number;
}

/** The process's collector, once `startIdleCollector` found `gc`. */
let active: Collector | null = null;

function collectIfGrown(collector: Collector, reason: string): boolean {
  const used = collector.probe.heapUsed();
  if (used - collector.baseline < collector.minGrowthBytes) return false;
  const startedAt = performance.now();
  collector.probe.gc();
  collector.baseline = collector.probe.heapUsed();
  logger('memory').debug({ heapBeforeMb: mb(used), heapAfterMb: mb(collector.baseline), ms: Math.round(performance.now() - startedAt) }, reason);
  return true;
}

/**
 * For a long job between its units of work (an export's pages): the same collection as when idle,
 * once the heap has grown by `minGrowthBytes` since the last one, busy or not. A job that reads
 * and writes for minutes would otherwise let the heap grow to several times its live size (an
 * embedded export of 1,000,000 contacts: +281 MB of RSS). Answers whether it collected; does
 * nothing without the collector (`gc` not exposed).
 */
export function collectGarbageIfGrown(): boolean {
  return active ? collectIfGrown(active, 'job collection') : false;
}

const mb = (bytes: number): number => Math.round(bytes / 1048576);

/** This process: `gc` when node exposes it, the heap in use, the event loop's utilisation since the previous call. */
function processProbe(): IdleCollectorProbe | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return null;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return {
    gc: () => gc(),
    // Array buffers (query results of the embedded database, file chunks) are garbage too.
    heapUsed: () => {
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    },
    utilization: () => {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, last);
      last = now;
      return utilization;
    },
  };
}
