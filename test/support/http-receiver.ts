import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait';

/** One request the receiver got, body kept raw (and parsed when it is JSON). */
export interface ReceivedRequest {
  method: string;
  /** Path plus query string, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** `JSON.parse(text)` when the body is JSON, else undefined. */
  json: unknown;
  receivedAt: Date;
}

export interface ReceiverResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string/Buffer is sent as is; anything else as JSON. */
  body?: unknown;
  /** Wait this long before answering (timeouts, slow endpoints). */
  delayMs?: number;
}

export type Responder = ReceiverResponse | ((req: ReceivedRequest) => ReceiverResponse | Promise<ReceiverResponse>);

/**
 * Loopback HTTP server recording every request, for webhook targets and for serving files such
 * as SNS signing certificates. Responses are configurable per path (exact path match) or as a
 * default; `respondOnce` queues one-shot answers (e.g. fail twice, then succeed).
 *
 *   const hooks = await startHttpReceiver();
 *   hooks.respond('/hook', { status: 500 });           // every /hook answers 500
 *   hooks.respondOnce('/hook', { status: 503 });       // the next /hook answers 503 first
 *   hooks.respond('/cert.pem', { body: pem, headers: { 'content-type': 'application/x-pem-file' } });
 *   const req = await hooks.waitForRequest((r) => r.path === '/hook');
 *   hooks.url('/hook')  // http://127.0.0.1:<port>/hook
 *   await hooks.close();
 */
export class HttpReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly routes = new Map<string, Responder>();
  private readonly once = new Map<string, Responder[]>();
  private defaultResponder: Responder = { status: 200, body: { ok: true } };

  constructor(private readonly server: Server) {}

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Absolute URL on this receiver. */
  url(path = '/'): string {
    return `http://127.0.0.1:${this.port}${path.startsWith('/') ? path : `/${path}`}`;
  }

  /** Sets the answer for `path` (exact match, no query), or the default for every path when `path` is '*'. */
  respond(path: string, responder: Responder): this {
    if (path === '*') this.defaultResponder = responder;
    else this.routes.set(path, responder);
    return this;
  }

  /** Queues a one-shot answer for `path` that takes precedence over `respond`. */
  respondOnce(path: string, responder: Responder): this {
    const queue = this.once.get(path) ?? [];
    queue.push(responder);
    this.once.set(path, queue);
    return this;
  }

  /** Requests received so far on `path` (all when omitted). */
  received(path?: string): ReceivedRequest[] {
    return path === undefined ? [...this.requests] : this.requests.filter((r) => r.path === path);
  }

  clear(): void {
    this.requests.length = 0;
  }

  /** Resolves with the first request (already received or future) matching `match`. */
  waitForRequest(match: (r: ReceivedRequest) => boolean = () => true, timeoutMs = 15_000): Promise<ReceivedRequest> {
    return waitFor(async () => this.requests.find(match), timeoutMs, 20).catch(() => {
      throw new Error(`HttpReceiver: no matching request within ${timeoutMs} ms (got ${this.requests.length})`);
    });
  }

  /** Waits until at least `count` requests match. */
  waitForCount(count: number, match: (r: ReceivedRequest) => boolean = () => true, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
    return waitFor(async () => {
      const matching = this.requests.filter(match);
      return matching.length >= count ? matching : undefined;
    }, timeoutMs, 20).catch(() => {
      throw new Error(`HttpReceiver: ${this.requests.filter(match).length}/${count} matching requests after ${timeoutMs} ms`);
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** @internal */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const text = body.toString('utf8');
    const parsedUrl = new URL(req.url ?? '/', 'http://127.0.0.1');
    let json: unknown;
    if (text && /json/i.test(req.headers['content-type'] ?? '')) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const received: ReceivedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      path: parsedUrl.pathname,
      query: parsedUrl.searchParams,
      headers: req.headers,
      body,
      text,
      json,
      receivedAt: new Date(),
    };
    this.requests.push(received);
    const queued = this.once.get(received.path);
    const responder = queued?.shift() ?? this.routes.get(received.path) ?? this.defaultResponder;
    const answer = typeof responder === 'function' ? await responder(received) : responder;
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    const headers: Record<string, string> = { ...(answer.headers ?? {}) };
    let payload: Buffer | string = '';
    if (typeof answer.body === 'string' || Buffer.isBuffer(answer.body)) payload = answer.body;
    else if (answer.body !== undefined) {
      payload = JSON.stringify(answer.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    res.writeHead(answer.status ?? 200, headers);
    res.end(payload);
  }
}

/** Starts a receiver on 127.0.0.1 (a free port unless `port` is given). */
export async function startHttpReceiver(port = 0): Promise<HttpReceiver> {
  const server = createServer();
  const receiver = new HttpReceiver(server);
  server.on('request', (req, res) => {
    receiver.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return receiver;
}
