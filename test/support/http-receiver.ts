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
  /** What became of the answer (filled in as it happens). */
  outcome: RequestOutcome;
}

/**
 * How a request ended: `pending` while its answer is delayed, hangs or streams; `answered` once
 * the whole answer was written; `reset` when the receiver destroyed the connection (a `reset`
 * responder, or `down()`/`close()` cutting it); `closed-by-client` when the client closed the
 * connection before the answer was complete (a timeout, a body read only in part).
 */
export interface RequestOutcome {
  state: 'pending' | 'answered' | 'reset' | 'closed-by-client';
  /** The status line sent, null while none was. */
  status: number | null;
  /** Body bytes handed to the socket (a streamed body: those written before the client went away). */
  bodyBytes: number;
  /** When the connection of this request ended (either side), null while it is open. */
  closedAt: Date | null;
}

export interface ReceiverResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string/Buffer is sent as is; anything else as JSON. */
  body?: unknown;
  /** Wait this long before answering (timeouts, slow endpoints). */
  delayMs?: number;
  /** Never answer: the request stays open until the client gives up (or the receiver goes down). */
  hang?: boolean;
  /** Destroy the connection instead of answering (the client sees a reset). */
  reset?: boolean;
  /**
   * Answer `status` with a body of this many bytes, streamed in 64 KB chunks as the client reads
   * them; a client that closes early ends the stream (`outcome.state` 'closed-by-client').
   */
  streamBytes?: number;
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
 *
 * Faults for clients under test: `{ hang: true }` never answers, `{ reset: true }` destroys the
 * connection, `{ status: 500, streamBytes: 50 << 20 }` streams a huge body; each request's
 * `outcome` says how it ended (e.g. closed by the client after a timeout). `down()` stops
 * listening (connections refused) and `up()` listens again on the same port.
 */
export class HttpReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly routes = new Map<string, Responder>();
  private readonly once = new Map<string, Responder[]>();
  private defaultResponder: Responder = { status: 200, body: { ok: true } };
  private readonly listeners: Array<(req: ReceivedRequest) => void> = [];
  /** Requests whose connection is still open, to mark them `reset` when the receiver cuts them. */
  private readonly open = new Map<ReceivedRequest, ServerResponse>();
  private listeningPort: number | null = null;

  constructor(private readonly server: Server) {}

  /** The port, also while the receiver is down (`up()` listens on it again). */
  get port(): number {
    if (this.listeningPort === null) this.listeningPort = (this.server.address() as AddressInfo).port;
    return this.listeningPort;
  }

  /** Whether it listens (false between `down()` and `up()`). */
  get listening(): boolean {
    return this.server.listening;
  }

  /** Calls `listener` with each request as it arrives, body read, before it is answered. */
  onRequest(listener: (req: ReceivedRequest) => void): this {
    this.listeners.push(listener);
    return this;
  }

  /** Stops listening and cuts every open connection (their requests read `reset`): clients get refused until `up()`. */
  async down(): Promise<void> {
    void this.port;
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.cutOpen();
    this.server.closeAllConnections();
    await closed;
  }

  /** Listens again on the same port after `down()`. */
  async up(): Promise<void> {
    if (this.server.listening) return;
    await listen(this.server, this.port);
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
    this.cutOpen();
    this.server.closeAllConnections();
    if (!this.server.listening) return Promise.resolve();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private cutOpen(): void {
    for (const [received, res] of this.open) {
      if (received.outcome.state === 'pending') received.outcome.state = 'reset';
      res.socket?.destroy();
    }
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
      outcome: { state: 'pending', status: null, bodyBytes: 0, closedAt: null },
    };
    const { outcome } = received;
    this.open.set(received, res);
    res.once('close', () => {
      this.open.delete(received);
      outcome.closedAt = new Date();
      if (outcome.state === 'pending') outcome.state = res.writableFinished ? 'answered' : 'closed-by-client';
    });
    this.requests.push(received);
    for (const listener of this.listeners) listener(received);
    const queued = this.once.get(received.path);
    const responder = queued?.shift() ?? this.routes.get(received.path) ?? this.defaultResponder;
    const answer = typeof responder === 'function' ? await responder(received) : responder;
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    if (answer.hang) return;
    if (answer.reset) {
      outcome.state = 'reset';
      req.socket.destroy();
      return;
    }
    const headers: Record<string, string> = { ...(answer.headers ?? {}) };
    const status = answer.status ?? 200;
    if (answer.streamBytes !== undefined) {
      await this.stream(res, status, headers, answer.streamBytes, outcome);
      return;
    }
    let payload: Buffer | string = '';
    if (typeof answer.body === 'string' || Buffer.isBuffer(answer.body)) payload = answer.body;
    else if (answer.body !== undefined) {
      payload = JSON.stringify(answer.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    res.writeHead(status, headers);
    outcome.status = status;
    outcome.bodyBytes = Buffer.byteLength(payload);
    res.end(payload, () => {
      if (outcome.state === 'pending') outcome.state = 'answered';
    });
  }

  /** Writes `total` bytes as the client reads them; stops when the client goes away. */
  private async stream(res: ServerResponse, status: number, headers: Record<string, string>, total: number, outcome: RequestOutcome): Promise<void> {
    res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': String(total), ...headers });
    outcome.status = status;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    while (outcome.bodyBytes < total && !res.destroyed) {
      const piece = total - outcome.bodyBytes >= chunk.length ? chunk : chunk.subarray(0, total - outcome.bodyBytes);
      outcome.bodyBytes += piece.length;
      if (!res.write(piece)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    }
    if (!res.destroyed) {
      res.end(() => {
        if (outcome.state === 'pending') outcome.state = 'answered';
      });
    }
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', failed);
      resolve();
    });
  });
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
  await listen(server, port);
  return receiver;
}
