import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

/** A span as the OTLP/HTTP JSON encoding carries it, with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  scope: string;
  resource: Record<string, string | number | boolean | undefined>;
}

const flatten = (attrs: KeyValue[] | undefined) =>
  Object.fromEntries((attrs ?? []).map(({ key, value }) => [key, value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue))]));

/**
 * An OTLP/HTTP receiver on loopback, for exporters set to `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`:
 * keeps every span posted to `/v1/traces` and the names of the metrics posted to `/v1/metrics`.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly metricNames = new Set<string>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const ref: { receiver?: OtlpReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          ref.receiver!.take(req.url ?? '', JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ref.receiver = new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return ref.receiver;
  }

  private take(path: string, body: any): void {
    if (path === '/v1/traces') {
      for (const rs of body.resourceSpans ?? []) {
        const resource = flatten(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            this.spans.push({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || undefined, name: s.name, kind: s.kind, attributes: flatten(s.attributes), scope: ss.scope?.name ?? '', resource });
          }
        }
      }
    } else if (path === '/v1/metrics') {
      for (const rm of body.resourceMetrics ?? []) for (const sm of rm.scopeMetrics ?? []) for (const m of sm.metrics ?? []) this.metricNames.add(m.name);
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
