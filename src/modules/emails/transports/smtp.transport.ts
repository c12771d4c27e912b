import { EmailTransport, OutgoingMessage, TransportError, TransportLane, TransportResult } from './email-transport';
import { SmtpConnectionPool, SmtpLane } from './smtp-connection-pool';

interface SmtpFailure {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
}

/** SMTP 5xx is a permanent refusal; 4xx and anything without a reply code (network) is temporary. */
export function classifySmtpError(err: unknown): TransportError {
  const e = (err ?? {}) as SmtpFailure;
  const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const message = (e.response ?? e.message ?? String(err)).slice(0, 1000);
  return new TransportError(message, code !== undefined && code >= 500 && code < 600, code);
}

/**
 * Pooled SMTP client for `SMTP_URL` (`smtp://` with STARTTLS when offered, `smtps://` for implicit
 * TLS). The receiving server's acceptance (250) is the delivery (`delivered: true`): a later bounce
 * report (DSN) turns it into a bounce.
 */
export class SmtpTransport implements EmailTransport {
  readonly kind = 'smtp' as const;
  readonly signsWithOwnDkim = true;
  private readonly pool: SmtpConnectionPool;

  constructor(url: string, poolSize: number) {
    this.pool = new SmtpConnectionPool({ url, size: poolSize, maxMessages: 1000, connectionTimeoutMs: 15_000, socketTimeoutMs: 60_000 });
  }

  /** A connected, authenticated session: the pipeline claims the email only once it has one. */
  async ready(): Promise<TransportLane> {
    let lane: SmtpLane;
    try {
      lane = await this.pool.acquire();
    } catch (err) {
      throw classifyConnectError(err);
    }
    return {
      send: async (message) => {
        try {
          const info = await lane.send(message.envelope, message.raw);
          lane.release();
          return { providerMessageId: info.response ? info.response.slice(0, 500) : null, delivered: true };
        } catch (err) {
          // The session is dropped: after a refusal it is mid-transaction, after a network error gone.
          lane.release(true);
          throw classifySmtpError(err);
        }
      },
      release: () => lane.release(),
    };
  }

  async send(message: OutgoingMessage): Promise<TransportResult> {
    return (await this.ready()).send(message);
  }

  async check(): Promise<Record<string, unknown>> {
    await this.pool.verify();
    return { transport: 'smtp' };
  }

  async close(): Promise<void> {
    this.pool.close();
  }
}

/** Opening a session failed: always temporary (nothing was handed over), even a 5xx to EHLO or AUTH. */
function classifyConnectError(err: unknown): TransportError {
  const failure = classifySmtpError(err);
  return new TransportError(`could not open an SMTP session: ${failure.message}`, false, failure.responseCode);
}
