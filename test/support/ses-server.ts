import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import startSesLocal from 'aws-ses-v2-local';
import { freePort } from './service-process';

/** One email as aws-ses-v2-local stores it (`GET /store`). */
export interface SesStoredEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  attachments: Array<{ content: string; contentType: string; filename?: string; size: number }>;
  at: number;
}

export interface SesQuota {
  maxSendRate: number;
  max24HourSend: number;
}

export interface SesServerOptions {
  /** What GetSendQuota answers. */
  quota?: SesQuota;
  /** Registering these domains (VerifyDomainDkim, SetIdentityMailFromDomain) fails. */
  refuseDomains?: string[];
  /** Removing these identities (DeleteIdentity) fails. */
  refuseDeletes?: string[];
}

const NS = 'http://ses.amazonaws.com/doc/2010-12-01/';

/** A success document of SES's query protocol: `<ActionResponse><ActionResult>…</ActionResult>…`. */
function queryResponse(action: string, result = ''): string {
  return `<${action}Response xmlns="${NS}"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${action}-0</RequestId></ResponseMetadata></${action}Response>`;
}

function queryError(code: string, message: string): string {
  return `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>error-0</RequestId></ErrorResponse>`;
}

/** DKIM tokens the test endpoint hands out for every domain. */
export const SES_DKIM_TOKENS = ['tokena', 'tokenb', 'tokenc'];

/**
 * An SES-compatible endpoint on loopback: point `AWS_ENDPOINT_URL_SES` at `url`. aws-ses-v2-local
 * accepts SendRawEmail and keeps what it received in memory, read through `GET /store`; it
 * implements no other call of SES's v1 (query) API and never answers them. A thin front answers
 * those we use, GetSendQuota and the identity calls, records every query call in `actions`, and
 * passes everything else through.
 */
export class SesServer {
  private constructor(
    private readonly emulator: Server,
    private readonly front: Server,
    readonly url: string,
    /** Every query-API call received (its form parameters), in order. */
    readonly actions: Array<Record<string, string>>,
  ) {}

  static async start(options: SesServerOptions = {}): Promise<SesServer> {
    const quota = options.quota ?? { maxSendRate: 1000, max24HourSend: 1_000_000 };
    const refused = new Set(options.refuseDomains ?? []);
    const undeletable = new Set(options.refuseDeletes ?? []);
    const emulatorPort = await freePort();
    const emulator = await startSesLocal({ host: '127.0.0.1', port: emulatorPort });
    const actions: Array<Record<string, string>> = [];

    const answer = (params: Record<string, string>): { status: number; body: string } | undefined => {
      const domain = params.Domain ?? params.Identity;
      switch (params.Action) {
        case 'GetSendQuota':
          return {
            status: 200,
            body: queryResponse('GetSendQuota', `<SentLast24Hours>0.0</SentLast24Hours><Max24HourSend>${quota.max24HourSend.toFixed(1)}</Max24HourSend><MaxSendRate>${quota.maxSendRate.toFixed(1)}</MaxSendRate>`),
          };
        case 'VerifyDomainDkim':
        case 'SetIdentityMailFromDomain':
        case 'DeleteIdentity':
          if ((params.Action === 'DeleteIdentity' ? undeletable : refused).has(domain)) return { status: 400, body: queryError('InvalidParameterValue', `Domain ${domain} refused`) };
          return {
            status: 200,
            body: queryResponse(params.Action, params.Action === 'VerifyDomainDkim' ? `<DkimTokens>${SES_DKIM_TOKENS.map((t) => `<member>${t}</member>`).join('')}</DkimTokens>` : ''),
          };
        default:
          return undefined; // sending: aws-ses-v2-local's part
      }
    };

    const front = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (req.method === 'POST' && req.url === '/') {
          const params = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
          actions.push(params);
          const own = answer(params);
          if (own) {
            res.writeHead(own.status, { 'content-type': 'text/xml' }).end(own.body);
            return;
          }
        }
        const upstream = httpRequest({ host: '127.0.0.1', port: emulatorPort, method: req.method, path: req.url, headers: req.headers }, (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        });
        upstream.on('error', (err) => res.writeHead(502).end(err.message));
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    return new SesServer(emulator, front, `http://127.0.0.1:${(front.address() as AddressInfo).port}`, actions);
  }

  /** The env a test app needs to send through this endpoint. */
  get env(): Record<string, string> {
    return { EMAIL_TRANSPORT: 'ses', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_ENDPOINT_URL_SES: this.url };
  }

  async emails(): Promise<SesStoredEmail[]> {
    const res = await fetch(`${this.url}/store`);
    if (!res.ok) throw new Error(`SES store answered ${res.status}`);
    return ((await res.json()) as { emails: SesStoredEmail[] }).emails;
  }

  /** The store is process-wide in aws-ses-v2-local: clear it between suites. */
  async clear(): Promise<void> {
    await fetch(`${this.url}/clear-store`, { method: 'POST' });
  }

  async close(): Promise<void> {
    for (const server of [this.front, this.emulator]) {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}
