import { collectDefaultMetrics, Counter, CounterConfiguration, Gauge, GaugeConfiguration, Histogram, HistogramConfiguration, Registry } from 'prom-client';

/**
 * One registry per process, created at import time: metrics are process-wide and several app
 * instances in one process (tests) share them instead of failing on duplicate registration.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

type Labels<T extends string> = { name: string; help: string; labelNames?: readonly T[] };

function existing<M>(name: string): M | undefined {
  return metricsRegistry.getSingleMetric(name) as M | undefined;
}

/**
 * Get-or-create helpers for other modules, e.g.
 * `const sent = metrics.counter({ name: 'mailroom_emails_sent_total', help: '…', labelNames: ['transport'] }); sent.inc({ transport: 'smtp' });`
 * Calling twice with the same name returns the same metric.
 */
export const metrics = {
  counter<T extends string = string>(config: Labels<T> & Omit<CounterConfiguration<T>, 'registers' | 'name' | 'help' | 'labelNames'>): Counter<T> {
    return existing<Counter<T>>(config.name) ?? new Counter<T>({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
  },
  gauge<T extends string = string>(config: Labels<T> & Omit<GaugeConfiguration<T>, 'registers' | 'name' | 'help' | 'labelNames'>): Gauge<T> {
    return existing<Gauge<T>>(config.name) ?? new Gauge<T>({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
  },
  histogram<T extends string = string>(config: Labels<T> & Omit<HistogramConfiguration<T>, 'registers' | 'name' | 'help' | 'labelNames'>): Histogram<T> {
    return existing<Histogram<T>>(config.name) ?? new Histogram<T>({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
  },
};

export const httpRequestsTotal = metrics.counter({
  name: 'http_requests_total',
  help: 'HTTP requests by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
});

export const httpRequestDuration = metrics.histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});
