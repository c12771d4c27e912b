import type { IncomingMessage } from 'node:http';
import type { Attributes, Span } from '@opentelemetry/api';
import type { TelemetryConfig } from '../../config/config';

type OtelApi = typeof import('@opentelemetry/api');

/**
 * OpenTelemetry, loaded only when `config.telemetry.enabled` (docs/operations: "Observability").
 * Off, no `@opentelemetry/*` module is required at all (not even the API): every helper below
 * is then a plain call of its function, so the service starts and idles as without it.
 */
let api: OtelApi | undefined;
let sdk: { shutdown(): Promise<void> } | undefined;

/** The server span of each incoming request (set by the http instrumentation's request hook). */
const requestSpans = new WeakMap<IncomingMessage, Span>();

/**
 * W3C trace context of the span that enqueued a job (`propagation.inject`'s carrier), kept in the
 * job's payload so the job's span continues that trace (`JobPayloads`, platform/queues/queues.ts).
 */
export interface JobTrace {
  traceparent: string;
  tracestate?: string;
}

/**
 * Starts the SDK (traces and metrics over OTLP/HTTP, configured by the standard `OTEL_*`
 * variables) before the modules it instruments are required: call it first, then require the app.
 */
export function startTelemetry(config: TelemetryConfig, role: string): void {
  if (!config.enabled || api) return;
  const { startSdk } = require('./otel-sdk') as typeof import('./otel-sdk');
  sdk = startSdk(config, role, (req, span) => requestSpans.set(req, span));
  api = require('@opentelemetry/api') as OtelApi;
}

/** Flushes what is buffered (spans, a last metrics export) and stops exporting. */
export async function stopTelemetry(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  api = undefined;
  await running?.shutdown();
}

export function telemetryOn(): boolean {
  return api !== undefined;
}

/** The active trace as a job payload carries it; undefined when telemetry is off or nothing is traced. */
export function currentJobTrace(): JobTrace | undefined {
  if (!api) return undefined;
  const carrier: Partial<JobTrace> = {};
  api.propagation.inject(api.context.active(), carrier);
  return carrier.traceparent ? (carrier as JobTrace) : undefined;
}

/**
 * Runs `fn` in a span named `name` (ended when it settles; a throw marks it as an error). Off,
 * just runs `fn`.
 */
export function traced<T>(name: string, attributes: Attributes, fn: () => Promise<T>, kind: 'internal' | 'client' = 'internal'): Promise<T> {
  if (!api) return fn();
  const { SpanKind } = api;
  return api.trace
    .getTracer('mailroom')
    .startActiveSpan(name, { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes }, (span) => settle(span, fn));
}

/** Adds attributes to the span in progress (a no-op off, or outside any span). */
export function setSpanAttributes(attributes: Attributes): void {
  api?.trace.getActiveSpan()?.setAttributes(attributes);
}

/** Adds attributes to the incoming request's span (`mailroom.project_id` once auth resolves it). */
export function setRequestAttributes(req: IncomingMessage, attributes: Attributes): void {
  if (!api) return;
  (requestSpans.get(req) ?? api.trace.getActiveSpan())?.setAttributes(attributes);
}

interface TracedJob {
  id?: string;
  attemptsMade: number;
  data: unknown;
}

/**
 * A queue job's span (`<queue> process`), continuing the trace its payload carries: the child of
 * the one enqueuing span, or (a group made of several requests' work) a new trace linking to each.
 */
export function runJob<T>(queue: string, job: TracedJob, fn: () => Promise<T>): Promise<T> {
  if (!api) return fn();
  const { propagation, trace, SpanKind, ROOT_CONTEXT } = api;
  const data = (job.data ?? {}) as { trace?: JobTrace[]; emailId?: string; emailIds?: string[]; projectId?: string };
  const parents = (Array.isArray(data.trace) ? data.trace : []).map((carrier) => propagation.extract(ROOT_CONTEXT, carrier));
  const parent = parents.length === 1 ? parents[0] : ROOT_CONTEXT;
  const links = parents.length > 1 ? parents.flatMap((ctx) => trace.getSpanContext(ctx) ?? []).map((spanContext) => ({ context: spanContext })) : [];
  const attributes: Attributes = {
    'messaging.system': 'bullmq',
    'messaging.operation.type': 'process',
    'messaging.destination.name': queue,
    'mailroom.job.attempt': job.attemptsMade + 1,
  };
  if (job.id !== undefined) attributes['messaging.message.id'] = job.id;
  if (typeof data.emailId === 'string') attributes['mailroom.email_id'] = data.emailId;
  if (Array.isArray(data.emailIds)) attributes['mailroom.email_count'] = data.emailIds.length;
  if (typeof data.projectId === 'string') attributes['mailroom.project_id'] = data.projectId;
  return trace.getTracer('mailroom').startActiveSpan(`${queue} process`, { kind: SpanKind.CONSUMER, attributes, links }, parent, (span) => settle(span, fn));
}

async function settle<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: api?.SpanStatusCode.ERROR ?? 2, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}
