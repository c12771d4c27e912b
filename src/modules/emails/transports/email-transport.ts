/** Injection token of the configured transport (`EMAIL_TRANSPORT`: outbox, smtp or ses). */
export const EMAIL_TRANSPORT = Symbol('EMAIL_TRANSPORT');

export interface OutgoingMessage {
  emailId: string;
  /** Envelope sender (MAIL FROM) and recipients (RCPT TO). */
  envelope: { from: string; to: string[] };
  /** The complete RFC 5322 message, already DKIM-signed when the transport does not sign. */
  raw: Buffer;
  messageId: string;
}

export interface TransportResult {
  /** The provider's id for the message (SES MessageId, SMTP queue reply), when it gives one. */
  providerMessageId: string | null;
  /** True when handing over already means delivered (the outbox; SMTP: the receiving server's 250); otherwise only "sent" (SES: until SNS reports it). */
  delivered: boolean;
}

/** A ready connection of a transport, lent for one message; `send` gives it back, `release` without sending. */
export interface TransportLane {
  send(message: OutgoingMessage): Promise<TransportResult>;
  release(): void;
}

export interface EmailTransport {
  readonly kind: 'outbox' | 'smtp' | 'ses';
  /** Whether the messages we give it should carry our own DKIM signature (SES signs itself). */
  readonly signsWithOwnDkim: boolean;
  send(message: OutgoingMessage): Promise<TransportResult>;
  /**
   * For a transport that works over connections (SMTP): resolves with one that is ready to take
   * a message (connected, authenticated), waiting while all of its pool is busy. The pipeline
   * claims an email only once it holds a ready lane, so an email waiting for a connection is
   * still `queued` and a crash or an outage then leaves it to a retry. Unset: `send` is the
   * hand-over itself.
   */
  ready?(): Promise<TransportLane>;
  /**
   * The provider's own sending rate limit in messages per second, when it has one we can read
   * (SES: the account's MaxSendRate); undefined when it has none or cannot tell.
   */
  maxSendRate?(): Promise<number | undefined>;
  /** Resolves when the transport is reachable (readiness). */
  check(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * A failed hand-over. `permanent` failures (SMTP 5xx, SES MessageRejected) are not retried and
 * mark the email bounced; temporary ones (4xx, network, throttling) are retried with backoff.
 */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}
