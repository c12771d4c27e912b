import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import startSesLocal from 'aws-ses-v2-local';

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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface SesQuota {
  maxSendRate: number;
  max24HourSend: number;
}

/** SES's (query protocol) answer to GetSendQuota. */
function sendQuotaXml(quota: SesQuota): string {
  return `<GetSendQuotaResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/">
  <GetSendQuotaResult>
    <SentLast24Hours>0.0</SentLast24Hours>
    <Max24HourSend>${quota.max24HourSend.toFixed(1)}</Max24HourSend>
    <MaxSendRate>${quota.maxSendRate.toFixed(1)}</MaxSendRate>
  </GetSendQuotaResult>
  <ResponseMetadata><RequestId>00000000-0000-0000-0000-000000000000</RequestId></ResponseMetadata>
</GetSendQuotaResponse>`;
}

/**
 * An SES-compatible endpoint on loopback: point `AWS_ENDPOINT_URL_SES` at `url`. aws-ses-v2-local
 * accepts SendRawEmail and keeps what it received in memory, read through `GET /store`. It does
 * not implement GetSendQuota (it never answers it), so a thin front answers that call with
 * `quota` and passes everything else through.
 */
export class SesServer {
  private constructor(
    private readonly emulator: Server,
    private readonly front: Server,
    readonly url: string,
  ) {}

  static async start(quota: SesQuota = { maxSendRate: 1000, max24HourSend: 1_000_000 }): Promise<SesServer> {
    const emulatorPort = await freePort();
    const emulator = await startSesLocal({ host: '127.0.0.1', port: emulatorPort });
    const front = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (req.method === 'POST' && new URLSearchParams(body.toString('utf8')).get('Action') === 'GetSendQuota') {
          res.writeHead(200, { 'content-type': 'text/xml' }).end(sendQuotaXml(quota));
          return;
        }
        const upstream = httpRequest({ host: '127.0.0.1', port: emulatorPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', (err) => res.writeHead(502).end(err.message));
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    return new SesServer(emulator, front, `http://127.0.0.1:${(front.address() as AddressInfo).port}`);
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
