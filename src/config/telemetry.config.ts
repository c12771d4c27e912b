// OpenTelemetry export: whether traces and metrics go out over OTLP/HTTP, under which service name, how often.
import { ConfigError, Env, bool, int, str } from './env';

export interface TelemetryConfig {
  /** Traces and metrics go out: `OTEL_EXPORTER_OTLP_ENDPOINT` (or a per-signal endpoint, or `OTEL_TRACES_EXPORTER`) is set and `OTEL_SDK_DISABLED` is not true. */
  enabled: boolean;
  /** `OTEL_METRICS_EXPORTER` is not `none`: the `/metrics` series also go out over OTLP. */
  metrics: boolean;
  /** `OTEL_SERVICE_NAME`, default `mailroom`. */
  serviceName: string;
  /** `OTEL_METRIC_EXPORT_INTERVAL` in ms (default 60 s, the standard's). */
  metricExportIntervalMs: number;
}

/**
 * Whether OpenTelemetry is on, decided here so `/config` can report it; the SDK itself reads the
 * standard `OTEL_*` variables (endpoint, headers, service name, sampler, batch sizes).
 */
export function telemetryConfig(env: Env): TelemetryConfig {
  const tracesExporter = str(env, 'OTEL_TRACES_EXPORTER');
  const endpoint = str(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') ?? str(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? str(env, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT');
  const enabled = !bool(env, 'OTEL_SDK_DISABLED', false) && (endpoint !== undefined || (tracesExporter !== undefined && tracesExporter !== 'none'));
  const protocol = str(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  if (enabled && protocol !== 'http/json' && protocol !== 'http/protobuf') throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP), got "${protocol}"`);
  return {
    enabled,
    metrics: enabled && str(env, 'OTEL_METRICS_EXPORTER') !== 'none',
    serviceName: str(env, 'OTEL_SERVICE_NAME') ?? 'mailroom',
    metricExportIntervalMs: int(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000, 100, 86_400_000),
  };
}
