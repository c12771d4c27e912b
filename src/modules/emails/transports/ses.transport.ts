import type * as Ses from '@aws-sdk/client-ses';
import type { AppConfig } from '../../../config/config';
import { sdks } from '../../../platform/sdks';
import { logger } from '../../../platform/logging/logger';
import { EmailTransport, OutgoingMessage, TransportError, TransportResult } from './email-transport';

/** How long the start-up quota lookup may take before sending goes ahead without the account's rate. */
const QUOTA_TIMEOUT_MS = 5_000;

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
  private readonly client: Ses.SESClient;
  private readonly endpoint: string;
  private readonly log = logger('ses');

  constructor(aws: AppConfig['aws']) {
    this.endpoint = aws.endpointUrlSes ?? `https://email.${aws.region}.amazonaws.com`;
    const { SESClient } = sdks.ses();
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
        new (sdks.ses().SendRawEmailCommand)({ RawMessage: { Data: message.raw }, Source: message.envelope.from, Destinations: message.envelope.to }),
      );
      return { providerMessageId: out.MessageId ?? null, delivered: false };
    } catch (err) {
      throw classifySesError(err);
    }
  }

  /**
   * The account's MaxSendRate (GetSendQuota), which SES enforces by throttling; undefined, with a
   * warning, when SES does not answer it (no `ses:GetSendQuota` permission, an emulator).
   */
  async maxSendRate(): Promise<number | undefined> {
    try {
      const quota = await this.sendQuota(QUOTA_TIMEOUT_MS);
      if (quota.MaxSendRate && quota.MaxSendRate > 0) return quota.MaxSendRate;
      this.log.warn({ quota }, 'SES reported no MaxSendRate; sending without a rate limit (set SEND_RATE_PER_SECOND)');
    } catch (err) {
      this.log.warn({ err }, 'could not read the SES send quota; sending without a rate limit (set SEND_RATE_PER_SECOND)');
    }
    return undefined;
  }

  /**
   * Ready when SES answers GetSendQuota; a credentials refusal (401/403) is not ready. An
   * endpoint that never answers that call (SES emulators only implement sending) must at
   * least answer HTTP.
   */
  async check(): Promise<Record<string, unknown>> {
    try {
      const quota = await this.sendQuota(1_500);
      return { transport: 'ses', maxSendRate: quota.MaxSendRate };
    } catch (err) {
      const status = (err as AwsFailure).$metadata?.httpStatusCode;
      if (status === 401 || status === 403) throw err;
      if (status !== undefined) return { transport: 'ses' };
      const res = await fetch(this.endpoint, { signal: AbortSignal.timeout(1_000) });
      return { transport: 'ses', endpointStatus: res.status };
    }
  }

  private sendQuota(timeoutMs: number) {
    return this.client.send(new (sdks.ses().GetSendQuotaCommand)({}), { abortSignal: AbortSignal.timeout(timeoutMs) });
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
