import { createTransport, type Transporter } from 'nodemailer';
import { EmailTransport, OutgoingMessage, TransportError, TransportResult } from './email-transport';

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

/** Pooled SMTP client for `SMTP_URL` (`smtp://` with STARTTLS when offered, `smtps://` for implicit TLS). */
export class SmtpTransport implements EmailTransport {
  readonly kind = 'smtp' as const;
  readonly signsWithOwnDkim = true;
  private readonly transporter: Transporter;
  /** One message at a time per pooled connection. */
  readonly handoverSlots: number;

  constructor(url: string, poolSize: number) {
    this.handoverSlots = poolSize;
    this.transporter = createTransport({
      url,
      pool: true,
      maxConnections: poolSize,
      maxMessages: 1000,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      disableFileAccess: true,
      disableUrlAccess: true,
    } as never);
    // The raw message already carries our Message-ID, but nodemailer does not read headers out of
    // raw content: without this the pool would generate (and log) a random one for every message.
    this.transporter.use('stream', (mail, done) => {
      const messageId = (mail.data as { messageId?: string }).messageId;
      if (messageId) mail.message.setHeader('Message-ID', messageId);
      done();
    });
  }

  async send(message: OutgoingMessage): Promise<TransportResult> {
    try {
      const info = (await this.transporter.sendMail({ envelope: message.envelope, raw: message.raw, messageId: message.messageId })) as { response?: string };
      return { providerMessageId: info.response ? info.response.slice(0, 500) : null, delivered: false };
    } catch (err) {
      throw classifySmtpError(err);
    }
  }

  async check(): Promise<Record<string, unknown>> {
    await this.transporter.verify();
    return { transport: 'smtp' };
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}
