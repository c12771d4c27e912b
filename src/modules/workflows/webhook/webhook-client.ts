import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, fetch } from 'undici';
import { isPrivateAddress } from '../../../platform/net/private-address';

export const WEBHOOK_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;
const OUTPUT_BODY_LIMIT = 2_000;

export interface WebhookRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  secret: string;
}

export interface WebhookResponse {
  status: number;
  body: string;
}

/** Not retried: the address is refused, the URL is bad, or a redirect leads nowhere allowed. */
export class WebhookRefused extends Error {}

/** The attempt took longer than `WEBHOOK_TIMEOUT_MS` (retried like a 5xx). */
export class WebhookTimedOut extends Error {
  constructor(options?: ErrorOptions) {
    super(`no answer within ${WEBHOOK_TIMEOUT_MS} ms`, options);
  }
}

/** `X-Signature` value: `sha256=` + hex HMAC-SHA256 of `<timestamp>.<raw body>` keyed with the project's webhook secret. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * DNS lookup for the connections of WEBHOOK requests: the addresses the socket will connect to
 * are the ones checked (no gap for DNS rebinding between a check and the connect).
 */
function guardedLookup(hostname: string, options: { all?: boolean } | number | LookupCallback, callback?: LookupCallback): void {
  const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
  const all = typeof options === 'object' && options !== null && options.all === true;
  dnsLookup(hostname, { all: true }, (err, addresses) => {
    if (err) return cb(err, all ? [] : '');
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) {
      return cb(Object.assign(new WebhookRefused(`${hostname} resolves to a private address (${refused.address})`), { code: 'EPRIVATE' }), all ? [] : '');
    }
    if (all) return cb(null, addresses);
    return cb(null, addresses[0].address, addresses[0].family);
  });
}

/**
 * Sends workflow WEBHOOK requests with undici's fetch: 10 s per attempt, redirects followed by
 * hand (at most 5) so every hop's URL and resolved address are checked, signed with
 * `X-Mailroom-Timestamp` and `X-Signature`.
 */
export class WebhookClient {
  private readonly guarded = new Agent({ connect: { lookup: guardedLookup as never } });
  private readonly open = new Agent();

  constructor(private readonly allowPrivate: boolean) {}

  async send(req: WebhookRequest): Promise<WebhookResponse> {
    const signal = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
    try {
      return await this.sendWithin(req, signal);
    } catch (err) {
      // The timeout aborts the request or the reading of its answer, whichever it falls in.
      if (signal.aborted && !(err instanceof WebhookRefused)) throw new WebhookTimedOut({ cause: err });
      throw err;
    }
  }

  private async sendWithin(req: WebhookRequest, signal: AbortSignal): Promise<WebhookResponse> {
    const timestamp = Math.floor(Date.now() / 1000);
    const raw = req.body ?? '';
    const headers: Record<string, string> = {
      'user-agent': 'Mailroom-Webhook/1',
      ...(req.body !== null ? { 'content-type': 'application/json' } : {}),
      ...lowerKeys(req.headers),
      'x-mailroom-timestamp': String(timestamp),
      'x-signature': webhookSignature(req.secret, timestamp, raw),
    };
    let url = this.checkUrl(req.url);
    let method = req.method;
    let body: string | null = req.body;
    for (let hop = 0; ; hop++) {
      let response;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: method === 'GET' || method === 'HEAD' ? undefined : (body ?? undefined),
          redirect: 'manual',
          signal,
          dispatcher: this.allowPrivate ? this.open : this.guarded,
        });
      } catch (err) {
        const cause = (err as { cause?: unknown }).cause;
        if (cause instanceof WebhookRefused) throw cause;
        throw err;
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new WebhookRefused(`more than ${MAX_REDIRECTS} redirects`);
        url = this.checkUrl(new URL(location, url).toString());
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
          method = 'GET';
          body = null;
        }
        continue;
      }
      const text = await response.text();
      return { status: response.status, body: text.length > OUTPUT_BODY_LIMIT ? `${text.slice(0, OUTPUT_BODY_LIMIT)}…` : text };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.guarded.close(), this.open.close()]);
  }

  /** http(s) only; an IP literal host is checked here (no lookup happens for it). */
  private checkUrl(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new WebhookRefused(`not a valid URL: ${raw.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookRefused(`only http and https URLs are allowed (${url.protocol})`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.allowPrivate && (isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost'))) {
      throw new WebhookRefused(`${host} is a private address`);
    }
    return url.toString();
  }
}

const lowerKeys = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
