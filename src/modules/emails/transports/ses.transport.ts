import { GetSendQuotaCommand, SESClient, SendRawEmailCommand } from '@aws-sdk/client-ses';
import type { AppConfig } from '../../../config/config';
import { EmailTransport, OutgoingMessage, TransportError, TransportResult } from './email-transport';

const TEMPORARY = new Set(['Throttling', 'ThrottlingException', 'TooManyRequestsException', 'AccountSendingPausedException', 'ServiceUnavailable', 'RequestTimeout']);

interface AwsFailure {
  name?: string;
  message?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** Throttling, 5xx and network errors are temporary; other SES refusals (MessageRejected, ...) permanent. */
export function classifySesError(err: unknown): TransportError {
  const e = (err ?? {}) as AwsFailure;
  const status = e.$metadata?.httpStatusCode;
  const temporary = TEMPORARY.has(e.name ?? '') || Boolean(e.$retryable) || status === undefined || status >= 500 || status === 429;
  return new TransportError(`${e.name ?? 'Error'}: ${e.message ?? String(err)}`.slice(0, 1000), !temporary, status);
}

/** Amazon SES `SendRawEmail`; SES signs with its own (Easy DKIM) keys, so we add none. */
export class SesTransport implements EmailTransport {
  readonly kind = 'ses' as const;
  readonly signsWithOwnDkim = false;
  private readonly client: SESClient;

  constructor(aws: AppConfig['aws']) {
    this.client = new SESClient({
      region: aws.region,
      endpoint: aws.endpointUrlSes,
      credentials: aws.accessKeyId && aws.secretAccessKey ? { accessKeyId: aws.accessKeyId, secretAccessKey: aws.secretAccessKey } : undefined,
      maxAttempts: 1,
    });
  }

  async send(message: OutgoingMessage): Promise<TransportResult> {
    try {
      const out = await this.client.send(
        new SendRawEmailCommand({ RawMessage: { Data: message.raw }, Source: message.envelope.from, Destinations: message.envelope.to }),
      );
      return { providerMessageId: out.MessageId ?? null, delivered: false };
    } catch (err) {
      throw classifySesError(err);
    }
  }

  /** Reachable when SES answers at all; a credentials refusal (403) is not ready. */
  async check(): Promise<Record<string, unknown>> {
    try {
      const quota = await this.client.send(new GetSendQuotaCommand({}));
      return { transport: 'ses', maxSendRate: quota.MaxSendRate };
    } catch (err) {
      const status = (err as AwsFailure).$metadata?.httpStatusCode;
      if (status !== undefined && status !== 401 && status !== 403) return { transport: 'ses' };
      throw err;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
