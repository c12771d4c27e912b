import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import type { DKIMResult, DNSResolver } from 'mailauth';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { waitFor } from './wait';

export interface ReceivedMessage {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  /** Null when the receiver was started with `parse: false` (benchmarks). */
  parsed: ParsedMail | null;
  /** mailauth's DKIM results, when a resolver was given. */
  dkim: DKIMResult[] | null;
  receivedAt: number;
}

export interface SmtpReceiverOptions {
  /** Parse each message with mailparser (default true). */
  parse?: boolean;
  /** DNS resolver for DKIM checks (e.g. the test DNS server's); no DKIM check without one. */
  dkimResolver?: DNSResolver;
  /** Answer each message's DATA this much later (a slow receiving server). */
  delayMs?: number;
}

interface ScriptedReply {
  code: number;
  message: string;
  /** How many more times to answer this way; Infinity for always. */
  remaining: number;
}

/**
 * A real SMTP server on loopback for tests and benchmarks: collects every accepted message
 * (raw source, parsed form, DKIM verdict) and can be told to refuse given recipients with
 * a 4xx or 5xx reply, a number of times or always.
 */
export class SmtpReceiver {
  readonly messages: ReceivedMessage[] = [];
  /** Accepted message count (also counted when parsing is off). */
  count = 0;
  private readonly replies = new Map<string, ScriptedReply>();

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
    private readonly options: SmtpReceiverOptions,
  ) {}

  static async start(options: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
    // The server's callbacks need the receiver, which needs the listening server's port.
    const ref: { receiver?: SmtpReceiver } = {};
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // close() ends clients' idle pooled connections after this instead of waiting 30 s for them.
      closeTimeout: 200,
      size: 60 * 1024 * 1024,
      maxClients: 1000,
      onRcptTo: (address, session, callback) => ref.receiver!.onRcptTo(address, session, callback),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          ref.receiver!
            .accept(Buffer.concat(chunks), session)
            .then(() => new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0)))
            .then(() => callback(null, `queued as ${session.id}`))
            .catch((err: Error) => callback(err));
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = (server as unknown as { server: { address(): AddressInfo } }).server.address();
    ref.receiver = new SmtpReceiver(server, address.port, options);
    return ref.receiver;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Answer RCPT TO for `recipient` with `code` (4xx temporary, 5xx permanent), `times` times (default always). */
  refuse(recipient: string, code: number, times = Infinity, message?: string): void {
    this.replies.set(recipient.toLowerCase(), { code, message: message ?? (code >= 500 ? 'Mailbox unavailable' : 'Try again later'), remaining: times });
  }

  clear(): void {
    this.messages.length = 0;
    this.count = 0;
    this.replies.clear();
  }

  /** Messages addressed (envelope) to `recipient`. */
  to(recipient: string): ReceivedMessage[] {
    return this.messages.filter((m) => m.envelope.to.includes(recipient.toLowerCase()));
  }

  /** Resolves once at least `n` messages were accepted in total. */
  async waitForCount(n: number, timeoutMs = 30_000): Promise<void> {
    await waitFor(async () => (this.count >= n ? true : undefined), timeoutMs).catch(() => {
      throw new Error(`SMTP receiver: ${this.count} of ${n} messages after ${timeoutMs} ms`);
    });
  }

  /** Resolves with the first message to `recipient`, waiting until it arrives. */
  waitFor(recipient: string, timeoutMs = 30_000): Promise<ReceivedMessage> {
    return waitFor(async () => this.to(recipient)[0], timeoutMs).catch(() => {
      throw new Error(`SMTP receiver: nothing for ${recipient} after ${timeoutMs} ms`);
    });
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, callback: (err?: Error | null) => void): void {
    const reply = this.replies.get(address.address.toLowerCase());
    if (reply && reply.remaining > 0) {
      reply.remaining -= 1;
      const err = new Error(reply.message) as Error & { responseCode: number };
      err.responseCode = reply.code;
      callback(err);
      return;
    }
    callback();
  }

  private async accept(raw: Buffer, session: SMTPServerSession): Promise<void> {
    const envelope = {
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : '',
      to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
    };
    const parsed = this.options.parse === false ? null : await simpleParser(raw);
    const dkim = this.options.dkimResolver ? (await dkimVerify(raw, { resolver: this.options.dkimResolver })).results : null;
    if (this.options.parse !== false) this.messages.push({ envelope, raw, parsed, dkim, receivedAt: Date.now() });
    this.count += 1;
  }
}
