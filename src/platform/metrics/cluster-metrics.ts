import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry } from 'prom-client';
import { metricsRegistry } from './metrics';

const SCRAPE_REQUEST = 'mailroom:metrics-request';
const SCRAPE_RESPONSE = 'mailroom:metrics-response';
/** prom-client gives each process 5 s to answer the primary; this bounds the whole round trip. */
const SCRAPE_TIMEOUT_MS = 10_000;

interface ScrapeMessage {
  type?: string;
  id?: string;
  text?: string;
  error?: string;
}

/**
 * `PROCESSES=N`: a scrape reaches whichever process the primary hands the connection to, so each
 * process asks the primary, which collects every process's registry over IPC (prom-client's
 * AggregatorRegistry: counters and histograms summed) and answers with the whole service.
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: ScrapeMessage) => {
    if (message?.type !== SCRAPE_REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: SCRAPE_RESPONSE, id: message.id, text }),
      (err: Error) => worker.send({ type: SCRAPE_RESPONSE, id: message.id, error: err.message }),
    );
  });
}

const pending = new Map<string, { resolve: (text: string) => void; reject: (err: Error) => void }>();

/** In a cluster process: answer the primary's collection requests with this process's registry. */
export function reportMetricsToPrimary(): void {
  AggregatorRegistry.setRegistries([metricsRegistry]);
  new AggregatorRegistry(); // installs prom-client's listener for the primary's requests
  process.on('message', (message: ScrapeMessage) => {
    if (message?.type !== SCRAPE_RESPONSE || !message.id) return;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message.text ?? '');
  });
}

/** The Prometheus text for `/metrics`: the whole cluster's under `PROCESSES`, else this process's. */
export function scrapeMetrics(): Promise<string> {
  if (!cluster.isWorker || !process.send) return metricsRegistry.metrics();
  const id = randomUUID();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error('the cluster primary did not answer the metrics scrape in time'));
    }, SCRAPE_TIMEOUT_MS);
    pending.set(id, {
      resolve: (text) => (clearTimeout(timer), resolve(text)),
      reject: (err) => (clearTimeout(timer), reject(err)),
    });
    process.send!({ type: SCRAPE_REQUEST, id });
  });
}
