import type { Attributes, HrTime } from '@opentelemetry/api';
import { AggregationTemporality, type CollectionResult, DataPointType, type MetricData, type MetricProducer } from '@opentelemetry/sdk-metrics';
import { resources } from '@opentelemetry/sdk-node';
import type { MetricObjectWithValues, MetricValue, MetricValueWithName, Registry } from 'prom-client';

type Labels = Record<string, string | number>;

const hrTime = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

const attributes = (labels: Labels | undefined): Attributes => ({ ...(labels ?? {}) });

/** One data point per label set: buckets (non-cumulative, as OTLP counts them), sum and count. */
function histogramPoints(values: MetricValueWithName<string>[], name: string, start: HrTime, end: HrTime): MetricData['dataPoints'] {
  const series = new Map<string, { labels: Labels; bounds: Array<[number, number]>; sum: number; count: number }>();
  for (const v of values) {
    const { le, ...labels } = (v.labels ?? {}) as Labels;
    const key = JSON.stringify(labels);
    let s = series.get(key);
    if (!s) series.set(key, (s = { labels, bounds: [], sum: 0, count: 0 }));
    if (v.metricName === `${name}_bucket` && le !== '+Inf') s.bounds.push([Number(le), v.value]);
    else if (v.metricName === `${name}_sum`) s.sum = v.value;
    else if (v.metricName === `${name}_count`) s.count = v.value;
  }
  return [...series.values()].map((s) => {
    const bounds = s.bounds.sort((a, b) => a[0] - b[0]);
    const cumulative = [...bounds.map(([, c]) => c), s.count];
    const counts = cumulative.map((c, i) => c - (i === 0 ? 0 : cumulative[i - 1]));
    return { startTime: start, endTime: end, attributes: attributes(s.labels), value: { buckets: { boundaries: bounds.map(([b]) => b), counts }, sum: s.sum, count: s.count } };
  });
}

function toMetricData(metric: MetricObjectWithValues<MetricValue<string>>, start: HrTime, end: HrTime): MetricData | undefined {
  const descriptor = { name: metric.name, description: metric.help, unit: '', valueType: 1 };
  const points = () => metric.values.map((v) => ({ startTime: start, endTime: end, attributes: attributes(v.labels as Labels), value: v.value }));
  switch (String(metric.type)) {
    case 'counter':
      return { descriptor, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.SUM, isMonotonic: true, dataPoints: points() };
    case 'gauge':
      return { descriptor, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.GAUGE, dataPoints: points() };
    case 'histogram':
      return {
        descriptor,
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.HISTOGRAM,
        dataPoints: histogramPoints(metric.values as MetricValueWithName<string>[], metric.name, start, end) as never,
      };
    default:
      return undefined;
  }
}

/**
 * The `/metrics` series (prom-client's registry) as OTLP metrics, read at each export: the
 * periodic reader merges them with the SDK's own, so every metric stays defined once.
 */
export class PromClientMetricProducer implements MetricProducer {
  private readonly startedAt = hrTime(Date.now());

  constructor(private readonly registry: Registry) {}

  async collect(): Promise<CollectionResult> {
    const end = hrTime(Date.now());
    const metrics = (await this.registry.getMetricsAsJSON()).flatMap((m) => toMetricData(m as MetricObjectWithValues<MetricValue<string>>, this.startedAt, end) ?? []);
    return { resourceMetrics: { resource: resources.emptyResource(), scopeMetrics: [{ scope: { name: 'mailroom/prom-client' }, metrics }] }, errors: [] };
  }
}
