import type { Server } from 'node:http';
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

/**
 * An SES-compatible endpoint on loopback (aws-ses-v2-local): point `AWS_ENDPOINT_URL_SES` at
 * `url`. It accepts SendRawEmail and keeps what it received in memory, read through `GET /store`.
 */
export class SesServer {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<SesServer> {
    const port = await freePort();
    const server = await startSesLocal({ host: '127.0.0.1', port });
    return new SesServer(server, `http://127.0.0.1:${port}`);
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
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
