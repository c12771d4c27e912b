import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { Batcher } from '../../../platform/batching/batcher';
import { ConcurrencyLimit } from '../../../platform/batching/concurrency-limit';
import { decryptSecret } from '../../../platform/crypto';
import { yieldToApi } from '../../../platform/http/api-load';
import { appMetrics } from '../../../platform/metrics/metrics';
import { setSpanAttributes, traced } from '../../../platform/telemetry/telemetry';
import { OUTBOUND_TIMEOUT_MS, OutboundHttp, type OutboundResponse } from '../../../platform/net/outbound-http';
import { APP_VERSION } from '../../../platform/version';
import { type AttemptOutcome, type ClaimedDelivery, DeliveriesStore, type RecordedOutcome } from '../deliveries.store';
import { webhookHeaders } from '../webhook-signing';
import { attemptResult, withoutNul } from './attempt-outcome';
import { replaySlots, WebhookQueue } from './webhook-queue';

/**
 * How long a claimed delivery is held: past the request's timeout with room to record the
 * outcome. A worker that dies mid-attempt leaves the delivery due once this has passed.
 */
export const ATTEMPT_LEASE_MS = OUTBOUND_TIMEOUT_MS + 20_000;

/** Decrypted secrets kept per process (by ciphertext: a rotation makes a new entry). */
const SECRET_CACHE_SIZE = 1_000;

/**
 * Makes attempts: claims due deliveries, sends each signed (Standard Webhooks) through the one
 * outbound client with keep-alive connections, at most `WEBHOOK_CONCURRENCY` requests in flight
 * per process, records every outcome in one statement per group, and queues the next attempt of
 * each failure at its due time (also written to the delivery, for the sweep).
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly http: OutboundHttp;
  private readonly limit: ConcurrencyLimit;
  private readonly replayLimit: ConcurrencyLimit;
  /**
   * Outcomes are written as each attempt ends: attempts ending together share one statement, but
   * an outcome never waits for a slower attempt of its job nor behind another statement in flight
   * (as many statements as attempts may run), and an attempt holds its concurrency slot until its
   * outcome is written. So a crash repeats at most `WEBHOOK_CONCURRENCY` attempts per process:
   * those sent whose outcome was not yet committed.
   */
  private readonly recorder: Batcher<AttemptOutcome, RecordedOutcome | null>;
  private readonly userAgent = `Mailroom-Webhooks/${APP_VERSION}`;
  private readonly secrets = new Map<string, string>();

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly store: DeliveriesStore,
    private readonly queue: WebhookQueue,
  ) {
    this.http = new OutboundHttp(config.webhookAllowPrivate);
    this.limit = new ConcurrencyLimit(config.webhooks.concurrency);
    this.replayLimit = new ConcurrencyLimit(replaySlots(config.webhooks.concurrency));
    this.recorder = new Batcher<AttemptOutcome, RecordedOutcome | null>({
      runBatch: async (outcomes) => {
        const written = new Map((await this.store.recordOutcomes(outcomes)).map((w) => [w.id, w]));
        return outcomes.map((o) => written.get(o.id) ?? null);
      },
      maxInFlight: config.webhooks.concurrency,
    });
  }

  /**
   * A job's deliveries: those still pending and due get an attempt each; the others are left
   * alone. Each outcome is recorded as soon as its attempt ends, and a failure's next attempt is
   * queued at its due time (also written to the delivery, for the sweep).
   */
  async deliver(ids: string[]): Promise<void> {
    // Deliveries yield to the API of this process: a busy API (a track load) keeps them waiting, one group going on per WEBHOOK_YIELD_MAX_MS.
    await yieldToApi(this.config.webhooks.yieldMaxMs);
    const now = new Date();
    const claimed = await this.store.claim(ids, now, new Date(now.getTime() + ATTEMPT_LEASE_MS));
    await Promise.all(
      claimed.map(async (c) => {
        // A replay's attempts hold at most a share of the slots: new events always find room.
        const attempt = () => this.limit.run(async () => this.recorder.run(await this.attempt(c, false)));
        const written = await (c.kind === 'replay' ? this.replayLimit.run(attempt) : attempt());
        if (written?.status === 'pending' && written.next_attempt_at !== null) {
          await this.queue.enqueueRetries([{ id: written.id, attempts: written.attempts, dueAt: written.next_attempt_at, kind: c.kind }]);
        }
      }),
    );
  }

  /** One attempt of a claimed test delivery, recorded, never retried. */
  async attemptOnce(claimed: ClaimedDelivery): Promise<AttemptOutcome> {
    const outcome = await this.attempt(claimed, true);
    await this.store.recordOutcomes([outcome]);
    return outcome;
  }

  /** One request, in its span (the outbound HTTP request's span is its child); its outcome (never throws for what the endpoint or the network did). */
  private attempt(c: ClaimedDelivery, finalAttempt: boolean): Promise<AttemptOutcome> {
    const attributes = { 'mailroom.project_id': c.project_id, 'mailroom.webhook_id': c.endpoint_id, 'mailroom.delivery_id': c.id, 'mailroom.event_id': c.event_id, 'mailroom.webhook.attempt': c.attempts };
    return traced('webhook.deliver', attributes, () => this.request(c, finalAttempt), 'client');
  }

  private async request(c: ClaimedDelivery, finalAttempt: boolean): Promise<AttemptOutcome> {
    const attemptedAt = new Date();
    const started = performance.now();
    let answer: { response: OutboundResponse } | { error: unknown };
    try {
      const headers = webhookHeaders(this.signingSecrets(c, attemptedAt), c.event_id, attemptedAt, c.body, this.userAgent);
      answer = { response: await this.http.send({ url: c.url, method: 'POST', headers, body: c.body }, { followRedirects: false }) };
    } catch (error) {
      answer = { error };
    }
    const durationMs = Math.round(performance.now() - started);
    const result = attemptResult(answer, c.attempts, this.config.webhooks.retryScheduleMs, finalAttempt);
    appMetrics.eventWebhook(result.kind);
    setSpanAttributes({ 'mailroom.webhook.outcome': result.kind });
    const response = 'response' in answer ? answer.response : null;
    return {
      id: c.id,
      attempt: c.attempts,
      attemptedAt,
      ok: result.ok,
      gone: result.gone,
      nextAttemptAt: result.retryInMs === null ? null : new Date(Date.now() + result.retryInMs),
      responseStatus: response?.status ?? null,
      responseHeaders: response ? Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [withoutNul(k), withoutNul(v)])) : null,
      responseBody: response ? withoutNul(response.body) : null,
      durationMs,
      error: result.error,
    };
  }

  /** The current secret, and the one before a rotation while it still signs (24 hours). */
  private signingSecrets(c: ClaimedDelivery, at: Date): string[] {
    const secrets = [this.decrypt(c.secret)];
    if (c.previous_secret && c.previous_secret_expires_at && new Date(c.previous_secret_expires_at) > at) secrets.push(this.decrypt(c.previous_secret));
    return secrets;
  }

  private decrypt(stored: string): string {
    let secret = this.secrets.get(stored);
    if (secret === undefined) {
      secret = decryptSecret(this.config.appSecret, 'webhook-secret', stored);
      if (this.secrets.size >= SECRET_CACHE_SIZE) this.secrets.delete(this.secrets.keys().next().value!);
      this.secrets.set(stored, secret);
    }
    return secret;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }
}
