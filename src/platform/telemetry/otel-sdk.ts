import type { IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK, resources } from '@opentelemetry/sdk-node';
import type { TelemetryConfig } from '../../config/config';
import { metricsRegistry } from '../metrics/metrics';
import { PromClientMetricProducer } from './prom-client-producer';

/** The statement runner's `EXECUTE stmt(<values>)`: the values are data (addresses, content), never span attributes. */
const EXECUTE_WITH_VALUES = /^(EXECUTE\s+[A-Za-z0-9_]+)\s*\(.*$/s;

/** Probes and scrapes would be most of the traces and tell nothing. */
const UNTRACED_PATHS = /^\/(health|metrics)(\/|\?|$)/;

/**
 * Required only by `startTelemetry` when telemetry is on. Traces: the SDK's exporter and batch
 * processor from the standard variables (`OTEL_EXPORTER_OTLP_*`, `OTEL_BSP_*`, the sampler).
 * Metrics: one periodic OTLP/HTTP (JSON) export of prom-client's registry, the same series as
 * `/metrics`, so no metric is defined twice.
 */
export function startSdk(config: TelemetryConfig, role: string, onRequestSpan: (req: IncomingMessage, span: Span) => void): NodeSDK {
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    resource: resources.defaultResource().merge(resources.resourceFromAttributes({ 'mailroom.role': role })),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.test(req.url ?? ''),
        requestHook: (span, req) => {
          if ('httpVersion' in req && !('setHeader' in req)) onRequestSpan(req as IncomingMessage, span);
        },
      }),
      // No express instrumentation: it wraps every layer of Nest's router for each request (two
      // spans and a context switch per layer), which cost more than the rest of a trace together.
      new PgInstrumentation({
        enhancedDatabaseReporting: false,
        // Statements of a request or a job; not the pollers' and sweepers' own (a root trace each,
        // several per second) nor a span per pool checkout.
        requireParentSpan: true,
        ignoreConnectSpans: true,
        requestHook: (span, { query }) => {
          const prepared = EXECUTE_WITH_VALUES.exec(query.text);
          if (prepared) span.setAttribute('db.query.text', prepared[1]);
        },
      }),
      // BullMQ's blocking reads and lock renewals would be a root trace each.
      new IORedisInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation(),
    ],
    metricReaders: config.metrics
      ? [
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter(),
            exportIntervalMillis: config.metricExportIntervalMs,
            exportTimeoutMillis: Math.min(30_000, config.metricExportIntervalMs),
            metricProducers: [new PromClientMetricProducer(metricsRegistry)],
          }),
        ]
      : [],
  });
  sdk.start();
  return sdk;
}
