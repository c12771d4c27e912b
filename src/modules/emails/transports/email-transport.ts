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
  /** True when handing over already means delivered (the outbox); otherwise only "sent". */
  delivered: boolean;
}

export interface EmailTransport {
  readonly kind: 'outbox' | 'smtp' | 'ses';
  /** Whether the messages we give it should carry our own DKIM signature (SES signs itself). */
  readonly signsWithOwnDkim: boolean;
  send(message: OutgoingMessage): Promise<TransportResult>;
  /**
   * Messages the transport works on at once (SMTP: its pooled connections), when it has such a
   * bound. The pipeline claims an email only once one of these is free, so an email waiting for
   * a connection is still `queued` and a crash leaves it to a retry; unset: no bound.
   */
  readonly handoverSlots?: number;
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
