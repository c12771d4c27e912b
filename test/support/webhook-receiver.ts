import { Webhook } from 'standardwebhooks';
import { HttpReceiver, ReceivedRequest, ReceiverResponse, Responder, startHttpReceiver } from './http-receiver';
import { waitFor } from './wait';

/** The body of an event webhook request (docs/integrations.md). */
export interface WebhookEvent {
  id: string;
  type: string;
  timestamp: string;
  data: { contact: { id: string; email: string } | null } & Record<string, unknown>;
}

/** One request to a webhook endpoint, checked with the `standardwebhooks` package when it arrived. */
export interface WebhookCall {
  request: ReceivedRequest;
  path: string;
  /** The `webhook-id` header. */
  webhookId: string | undefined;
  /** The parsed body (undefined when it is not JSON). */
  event: WebhookEvent | undefined;
  /** Whether one of the path's secrets verified it (`new Webhook(secret).verify(body, headers)`). */
  verified: boolean;
  /** The path's secrets that verified it, in the order they were given. */
  verifiedWith: string[];
  /** The last verification error, null when verified. */
  error: string | null;
  /** Whether the receiver answered it with a 2xx in full (what the sender sees as delivered). */
  readonly delivered: boolean;
}

/** Answers of a misbehaving endpoint, for `respond`/`respondOnce`. */
export const faults = {
  /** Never answers (the sender must give up on its own, 10 s). */
  hang: { hang: true } as ReceiverResponse,
  /** Destroys the connection without an answer. */
  reset: { reset: true } as ReceiverResponse,
  /** A redirect, which the sender must not follow. */
  redirect: (location: string): ReceiverResponse => ({ status: 302, headers: { location }, body: 'moved' }),
  /** A 500 whose body is 50 MB, streamed as the sender reads it (the sender reads 2 KB and closes). */
  hugeBody: (status = 500, bytes = 50 * 1024 * 1024): ReceiverResponse => ({ status, streamBytes: bytes }),
  status: (status: number, body?: unknown): ReceiverResponse => ({ status, body }),
};

/** Counts over the calls of one path (or all). */
export interface WebhookTally {
  calls: number;
  verified: number;
  unverified: number;
  /** Calls answered 2xx in full. */
  delivered: number;
  /** Distinct `webhook-id`s answered 2xx. */
  distinctDelivered: number;
  /** `webhook-id`s answered 2xx more than once. */
  duplicates: number;
}

/**
 * A loopback webhook endpoint built on `HttpReceiver`: every request is verified as it arrives
 * against the secrets set for its path, with the `standardwebhooks` package, as a receiver in
 * production would; answers (statuses, faults) and `down()`/`up()` are the HttpReceiver's.
 *
 *   const hooks = await WebhookReceiver.start();
 *   hooks.secret('/a', created.secret);                  // verify /a's requests with it
 *   hooks.respond('/a', faults.hang);                     // or { status: 500 }, faults.reset, …
 *   const call = await hooks.waitForCall((c) => c.event?.type === 'purchase');
 *   expect(call.verified).toBe(true);
 */
export class WebhookReceiver {
  readonly calls: WebhookCall[] = [];
  private readonly secrets = new Map<string, string[]>();

  private constructor(readonly http: HttpReceiver) {
    http.onRequest((request) => this.calls.push(this.check(request)));
  }

  static async start(port = 0): Promise<WebhookReceiver> {
    return new WebhookReceiver(await startHttpReceiver(port));
  }

  get port(): number {
    return this.http.port;
  }

  url(path = '/'): string {
    return this.http.url(path);
  }

  /** Sets the secrets the requests of `path` are verified with ('*': every path without its own). */
  secret(path: string, ...secrets: string[]): this {
    this.secrets.set(path, secrets);
    return this;
  }

  respond(path: string, responder: Responder): this {
    this.http.respond(path, responder);
    return this;
  }

  respondOnce(path: string, responder: Responder): this {
    this.http.respondOnce(path, responder);
    return this;
  }

  /** Calls received on `path` (all when omitted). */
  received(path?: string): WebhookCall[] {
    return path === undefined ? [...this.calls] : this.calls.filter((c) => c.path === path);
  }

  /** Resolves with the first call (received or future) matching `match`. */
  waitForCall(match: (c: WebhookCall) => boolean, timeoutMs = 15_000): Promise<WebhookCall> {
    return waitFor(async () => this.calls.find(match), timeoutMs, 20).catch(() => {
      throw new Error(`WebhookReceiver: no matching call within ${timeoutMs} ms (got ${this.calls.length}: ${this.describe()})`);
    });
  }

  /** Waits until at least `count` calls match. */
  waitForCalls(count: number, match: (c: WebhookCall) => boolean = () => true, timeoutMs = 15_000): Promise<WebhookCall[]> {
    return waitFor(async () => {
      const matching = this.calls.filter(match);
      return matching.length >= count ? matching : undefined;
    }, timeoutMs, 20).catch(() => {
      throw new Error(`WebhookReceiver: ${this.calls.filter(match).length}/${count} matching calls after ${timeoutMs} ms`);
    });
  }

  /** Waits until the call's connection has ended (answered, reset, or closed by the sender). */
  waitForEnd(call: WebhookCall, timeoutMs = 20_000): Promise<WebhookCall> {
    return waitFor(async () => (call.request.outcome.state === 'pending' ? undefined : call), timeoutMs, 20);
  }

  /** Verifies a call afresh with `secret` (true when it verifies). */
  verifies(call: WebhookCall, secret: string): boolean {
    try {
      new Webhook(secret).verify(call.request.body, headerRecord(call.request));
      return true;
    } catch {
      return false;
    }
  }

  tally(path?: string): WebhookTally {
    const calls = this.received(path);
    const perId = new Map<string, number>();
    for (const c of calls) if (c.delivered && c.webhookId) perId.set(c.webhookId, (perId.get(c.webhookId) ?? 0) + 1);
    return {
      calls: calls.length,
      verified: calls.filter((c) => c.verified).length,
      unverified: calls.filter((c) => !c.verified).length,
      delivered: calls.filter((c) => c.delivered).length,
      distinctDelivered: perId.size,
      duplicates: [...perId.values()].filter((n) => n > 1).length,
    };
  }

  clear(): void {
    this.calls.length = 0;
    this.http.clear();
  }

  down(): Promise<void> {
    return this.http.down();
  }

  up(): Promise<void> {
    return this.http.up();
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private check(request: ReceivedRequest): WebhookCall {
    const secrets = this.secrets.get(request.path) ?? this.secrets.get('*') ?? [];
    const verifiedWith: string[] = [];
    let error: string | null = secrets.length === 0 ? 'no secret set for this path' : null;
    for (const secret of secrets) {
      try {
        new Webhook(secret).verify(request.body, headerRecord(request));
        verifiedWith.push(secret);
      } catch (e) {
        error = (e as Error).message;
      }
    }
    const header = request.headers['webhook-id'];
    const outcome = request.outcome;
    return {
      request,
      path: request.path,
      webhookId: Array.isArray(header) ? header[0] : header,
      event: request.json as WebhookEvent | undefined,
      verified: verifiedWith.length > 0,
      verifiedWith,
      error: verifiedWith.length > 0 ? null : error,
      get delivered() {
        return outcome.state === 'answered' && outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      },
    };
  }

  private describe(): string {
    return this.calls
      .slice(-10)
      .map((c) => `${c.path} ${c.event?.type ?? '?'} ${c.request.outcome.state}`)
      .join('; ');
  }
}

function headerRecord(request: ReceivedRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
