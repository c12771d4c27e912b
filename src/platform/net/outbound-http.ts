import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { logger } from '../logging/logger';
import { isPrivateAddress } from './private-address';

const log = logger('outbound-http');

/** Every outbound request (a workflow WEBHOOK step, an event webhook) ends within this, its answer's reading included. */
export const OUTBOUND_TIMEOUT_MS = 10_000;
/** Hops a request that follows redirects takes at most. */
export const MAX_REDIRECTS = 5;
/** What is read of an answer's body by default (2 KB): the rest is never read, the connection is closed instead. */
export const DEFAULT_BODY_LIMIT_BYTES = 2_048;

export interface OutboundRequest {
  url: string;
  method: string;
  /** Sent as given (lower-case names are best: they are what the receiver sees either way). */
  headers: Record<string, string>;
  body: string | null;
}

export interface OutboundOptions {
  /** Follow 3xx answers with a `location` (at most `MAX_REDIRECTS`, each hop's URL and address checked); otherwise a 3xx is the answer. */
  followRedirects: boolean;
  /** Bytes of the answer's body read at most (default `DEFAULT_BODY_LIMIT_BYTES`). */
  maxBodyBytes?: number;
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The first `maxBodyBytes` of the body, decoded as UTF-8. */
  body: string;
  /** The body was longer than what was read. */
  truncated: boolean;
}

/** Not worth retrying as is: the address is refused, the URL is bad, or a redirect leads nowhere allowed. */
export class OutboundRefused extends Error {}

/**
 * What a caller is told of a private, loopback or link-local target: never the address a name
 * resolved to (that would map the deployment's internal DNS for whoever can set a URL).
 */
export const DESTINATION_NOT_ALLOWED = 'the destination is not allowed';

/** No complete answer within the timeout (the request or the reading of its answer). */
export class OutboundTimedOut extends Error {
  constructor(timeoutMs: number, options?: ErrorOptions) {
    super(`no answer within ${timeoutMs} ms`, options);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * DNS lookup for the guarded agent's connections: the addresses the socket will connect to are
 * the ones checked (no gap for DNS rebinding between a check and the connect).
 */
export function guardedLookup(hostname: string, options: { all?: boolean } | number | LookupCallback, callback?: LookupCallback): void {
  const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
  const all = typeof options === 'object' && options !== null && options.all === true;
  dnsLookup(hostname, { all: true }, (err, addresses) => {
    if (err) return cb(err, all ? [] : '');
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) {
      log.debug({ hostname, address: refused.address }, 'outbound request refused: the name resolves to a private address');
      return cb(Object.assign(new OutboundRefused(DESTINATION_NOT_ALLOWED), { code: 'EPRIVATE' }), all ? [] : '');
    }
    if (all) return cb(null, addresses);
    return cb(null, addresses[0].address, addresses[0].family);
  });
}

/** The refusal somewhere in an error's cause chain (undici wraps the lookup's error). */
function refusalIn(err: unknown): OutboundRefused | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundRefused) return e;
  }
  return undefined;
}

const flatHeaders = (headers: Record<string, string | string[] | undefined>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
};

/**
 * The one outbound HTTP client of the service, over undici with keep-alive connections: private,
 * loopback and link-local targets are refused after DNS resolution (`private-address.ts`) unless
 * `allowPrivate` (`WEBHOOK_ALLOW_PRIVATE`), every request ends within the timeout, and at most
 * `maxBodyBytes` of an answer are read (a 50 MB answer costs 2 KB and a closed connection).
 * It only sends: signing belongs to the caller.
 */
export class OutboundHttp {
  private readonly agent: Agent;

  constructor(private readonly allowPrivate: boolean) {
    this.agent = allowPrivate ? new Agent() : new Agent({ connect: { lookup: guardedLookup as never } });
  }

  async send(req: OutboundRequest, options: OutboundOptions): Promise<OutboundResponse> {
    const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await this.sendWithin(req, options, signal);
    } catch (err) {
      const refused = refusalIn(err);
      if (refused) throw refused;
      // The timeout aborts the request or the reading of its answer, whichever it falls in.
      if (signal.aborted) throw new OutboundTimedOut(timeoutMs, { cause: err });
      throw err;
    }
  }

  private async sendWithin(req: OutboundRequest, options: OutboundOptions, signal: AbortSignal): Promise<OutboundResponse> {
    let url = this.checkUrl(req.url);
    let method = req.method.toUpperCase();
    let body = req.body;
    for (let hop = 0; ; hop++) {
      const response = await request(url, {
        method: method as 'POST',
        headers: req.headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : (body ?? undefined),
        signal,
        dispatcher: this.agent,
      });
      const location = response.headers.location;
      if (options.followRedirects && response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        // Reads what is small of a redirect's body, or closes the connection (never an unhandled 'error').
        await response.body.dump({ limit: DEFAULT_BODY_LIMIT_BYTES }).catch(() => undefined);
        if (hop >= MAX_REDIRECTS) throw new OutboundRefused(`more than ${MAX_REDIRECTS} redirects`);
        url = this.checkUrl(new URL(location, url).toString());
        if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = null;
        }
        continue;
      }
      const { text, truncated } = await readBounded(response.body, options.maxBodyBytes ?? DEFAULT_BODY_LIMIT_BYTES);
      return { status: response.statusCode, headers: flatHeaders(response.headers), body: text, truncated };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** http(s) only; an IP literal host is checked here (no lookup happens for it). */
  private checkUrl(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefused(`not a valid URL: ${raw.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`only http and https URLs are allowed (${url.protocol})`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.allowPrivate && (isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost'))) {
      throw new OutboundRefused(DESTINATION_NOT_ALLOWED);
    }
    return url.toString();
  }
}

/**
 * Reads at most `limit` bytes of a body, then destroys the stream (undici closes the connection
 * rather than drain the rest); a body that ends within the limit leaves the connection reusable.
 */
async function readBounded(stream: AsyncIterable<Buffer> & { destroy(): void; on(event: 'error', listener: () => void): unknown }, limit: number): Promise<{ text: string; truncated: boolean }> {
  // Destroying the body aborts the request, which undici reports as an 'error' of the stream: expected here.
  stream.on('error', () => undefined);
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    const room = limit - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size = limit;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  if (truncated) stream.destroy();
  return { text: Buffer.concat(chunks, size).toString('utf8'), truncated };
}
