import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ConcurrencyLimit } from '../../../platform/batching/concurrency-limit';
import { logger } from '../../../platform/logging/logger';
import { traced } from '../../../platform/telemetry/telemetry';
import { appMetrics } from '../../../platform/metrics/metrics';
import type { EmailStatus } from '../entities/email.entity';
import { SEND_LIMITS } from '../send/send-request';
import { EMAIL_TRANSPORT, EmailTransport, TransportError, TransportLane, TransportResult } from '../transports/email-transport';
import { composeMime } from './compose-mime';
import { EmailEvents } from './email-events';
import { EmailStatusStore } from '../email-status.store';
import type { LoadedEmail } from '../email-status.rows';
import { RenderFailedError } from '../../templates';
import { MessageBuilder, UnbuildableEmailError } from './message-builder';
import { SendTimeBounces } from './send-time-bounces';
import { bounceAddress } from '../marks/bounce-address';
import { HandoverWindows } from './handover-windows';

/** When a claimed email's claim committed and when the transport answered (`performance.now()`). */
interface Window {
  claimedAt: number;
  answeredAt: number;
}

type HandOver = 'lost' | ({ result: TransportResult } & Window) | ({ error: unknown; claimed: true } & Window) | { error: unknown; claimed: false };

/** Another worker holds the email's lease; the job is retried after the backoff. */
export class LeaseHeldError extends Error {
  constructor(emailId: string) {
    super(`email ${emailId} is being sent by another worker`);
  }
}

const INTERRUPTED =
  'interrupted while being handed to the transport (worker stopped or outage); not resent because the transport may already have accepted it';

/** How long a worker keeps retrying the write of an outcome the transport already gave (an outage). */
const OUTCOME_WRITE_MS = 15 * 60_000;

/**
 * Sends one email: load → build (render, headers, DKIM) → claim → hand to the transport →
 * record the outcome and emit events. Idempotent per email id: a job that finds the email
 * already past `queued` does nothing.
 *
 * Crash safety (docs/operations.md, "Reliability"). The row moves to `sending` (with a lease) only just before
 * the hand-over: with a connection-based transport, once it holds a connected, authenticated
 * session (`ready`). The outcome is written right after; when the database is unreachable then,
 * the write is retried (never the hand-over) until it lands. A crash inside the hand-over leaves
 * the email `sending`; when its lease has run out, a retry marks it `uncertain` (it may or may not
 * have arrived) instead of sending again. So an email is handed over at most once by itself;
 * `POST /campaigns/:id/resend-uncertain` is the user's explicit at-least-once choice. Everything
 * before the claim (rendering, composing, connecting) may run any number of times.
 */
@Injectable()
export class EmailPipeline {
  private readonly log = logger('email-pipeline');
  private inFlight = 0;
  /** `SEND_CONCURRENCY`: emails this process works on at once, from single and grouped jobs alike. */
  private readonly slots: ConcurrencyLimit;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly store: EmailStatusStore,
    private readonly builder: MessageBuilder,
    @Inject(EMAIL_TRANSPORT) private readonly transport: EmailTransport,
    private readonly events: EmailEvents,
    private readonly bounces: SendTimeBounces,
    private readonly windows: HandoverWindows,
  ) {
    this.slots = new ConcurrencyLimit(config.email.sendConcurrency);
    // SES keeps its own MAIL FROM (its bounces come through SNS); the others get a VERP return path.
    this.verp = config.inbound.mxHost && transport.kind !== 'ses' ? { secret: config.appSecret } : null;
  }

  private readonly verp: { secret: string } | null;

  /** MAIL FROM: the sender, or with `INBOUND_MX_HOST` the email's bounce address on the signing (verified) domain. */
  private envelopeSender(email: LoadedEmail, signingDomain: string | undefined): string {
    const domain = signingDomain ?? email.fromAddress.slice(email.fromAddress.lastIndexOf('@') + 1);
    return this.verp && domain ? bounceAddress(this.verp.secret, email.id, domain.toLowerCase()) : email.fromAddress;
  }

  deliver(emailId: string, attempt: { isLast: boolean }): Promise<void> {
    return this.slots.run(() => this.deliverNow(emailId, attempt));
  }

  private async deliverNow(emailId: string, attempt: { isLast: boolean }): Promise<void> {
    const email = await this.store.load(emailId);
    if (!email) return;
    if (email.status === 'sending') {
      if (email.leaseActive) throw new LeaseHeldError(emailId);
      if (await this.store.markUncertain(emailId, INTERRUPTED)) this.count('uncertain');
      return;
    }
    if (email.status !== 'queued') return;
    // A warm-up cap holds it to a later day: the sweep enqueues it then (and the claim refuses it before).
    if (email.held) return;

    let built;
    try {
      // The render waits in the renderer pool, where projects take turns (docs/rendering.md): no slot is
      // held meanwhile, or one project's slow renders would hold every slot and queue another's email behind them.
      built = await this.slots.outside(() => this.builder.build(email, { ownDkim: this.transport.signsWithOwnDkim }));
    } catch (err) {
      // A template that fails to render (an error, its time or memory bound) fails for good, never retried:
      // a campaign contact is skipped (the campaign goes on), any other email fails with render_error.
      if (err instanceof RenderFailedError && email.campaignId) {
        if (await this.store.markSkipped(emailId, 'render_error')) this.count('skipped');
        return;
      }
      if (err instanceof RenderFailedError) {
        if (await this.store.markFailed(emailId, `render_error: ${err.message}`.slice(0, 1000))) this.count('failed');
        return;
      }
      if (err instanceof UnbuildableEmailError || attempt.isLast) {
        if (await this.store.markFailed(emailId, `could not build the message: ${(err as Error).message}`.slice(0, 1000))) this.count('failed');
        return;
      }
      throw err;
    }
    if (built.kind === 'skip') {
      if (await this.store.markSkipped(emailId, built.reason)) this.count('skipped');
      return;
    }
    const message = built.message;
    const raw = await composeMime(message);
    if (raw.length > SEND_LIMITS.messageBytes) {
      if (await this.store.markFailed(emailId, `the message is ${raw.length} bytes, over the ${SEND_LIMITS.messageBytes}-byte limit`)) this.count('failed');
      return;
    }
    const outcome = await this.handOver(email, message.subject, message.messageId, raw, this.envelopeSender(email, message.dkim?.domainName));
    if (outcome === 'lost') return;
    if ('error' in outcome && !outcome.claimed) return this.onConnectError(email, outcome.error, attempt);
    try {
      if ('error' in outcome) await this.onTransportError(email, message.subject, outcome.error, attempt);
      else await this.recordSent(email, message.subject, message.messageId, outcome.result);
    } finally {
      // The window closes when the outcome is written (or, for a temporary failure, released).
      this.windows.record(outcome.answeredAt - outcome.claimedAt, performance.now() - outcome.answeredAt, 'result' in outcome);
    }
  }

  /**
   * Claims the email and gives it to the transport. A connection-based transport first lends a
   * ready connection (`ready`): an email waiting for one is not claimed yet, so a crash while it
   * waits leaves it `queued` for a retry, and only the hand-over itself is the at-most-once
   * window. 'lost': another worker claimed it (or its status moved on).
   */
  private async handOver(email: LoadedEmail, subject: string, messageId: string, raw: Buffer, sender: string): Promise<HandOver> {
    let lane: TransportLane | undefined;
    try {
      lane = await this.transport.ready?.();
    } catch (error) {
      // No connection: nothing was claimed, the email stays `queued` for the job's retry.
      return { error, claimed: false };
    }
    const token = randomUUID();
    let claimed: boolean;
    try {
      claimed = await this.store.claim(email.id, subject, messageId, token);
    } catch (error) {
      lane?.release();
      // The claim's answer was lost (say, the connection dropped): it may have committed. Nothing
      // was handed over, so this claim, if it landed, is taken back once the database answers;
      // the email is `queued` for the job's retry instead of `uncertain` when its lease runs out.
      await this.persist(email.id, () => this.store.unclaim(email.id, token));
      return { error, claimed: false };
    }
    if (!claimed) {
      lane?.release();
      return 'lost';
    }
    this.inFlight += 1;
    const claimedAt = performance.now();
    try {
      const message = { emailId: email.id, envelope: { from: sender, to: [email.toAddress] }, raw, messageId };
      const send = () => (lane ? lane.send(message) : this.transport.send(message));
      const attributes = { 'mailroom.email_id': email.id, 'mailroom.project_id': email.projectId ?? '', 'mailroom.transport': this.transport.kind };
      const result = await traced('email.handover', attributes, send, 'client');
      return { result, claimedAt, answeredAt: performance.now() };
    } catch (error) {
      return { error, claimed: true, claimedAt, answeredAt: performance.now() };
    } finally {
      this.inFlight -= 1;
    }
  }

  /**
   * A grouped job's emails, all at once: their loads, claims and sent records share statements.
   * Resolves with the emails to try again alone (temporary failure, a lease still held, an
   * error before the hand-over); permanent outcomes are recorded as for a single email.
   */
  async deliverGroup(emailIds: string[]): Promise<string[]> {
    const again: string[] = [];
    await Promise.all(
      emailIds.map((emailId) =>
        this.deliver(emailId, { isLast: false }).catch((err: unknown) => {
          if (!(err instanceof TransportError) && !(err instanceof LeaseHeldError)) this.log.warn({ err, emailId }, 'delivering an email of a group failed; it will be retried alone');
          again.push(emailId);
        }),
      ),
    );
    return again;
  }

  /** Waits (bounded) until no message is being handed to the transport. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** The transport could not open a connection: the email was never claimed, a retry may send it. */
  private async onConnectError(email: LoadedEmail, err: unknown, attempt: { isLast: boolean }): Promise<void> {
    const failure = err instanceof TransportError ? err : new TransportError(err instanceof Error ? err.message : String(err), false);
    if (!attempt.isLast) throw failure;
    if (await this.store.markFailed(email.id, `gave up after repeated temporary failures: ${failure.message}`, ['queued'])) this.count('failed');
  }

  private async onTransportError(email: LoadedEmail, subject: string, err: unknown, attempt: { isLast: boolean }): Promise<void> {
    const failure = err instanceof TransportError ? err : new TransportError(err instanceof Error ? err.message : String(err), false);
    if (failure.permanent) {
      if (await this.persist(email.id, () => this.store.markBounced(email.id, failure.message))) {
        this.count('bounced');
        appMetrics.feedback('bounce', 'Permanent');
        await this.emit(email, subject, ['email.bounce'], { bounceType: 'Permanent' });
        // Suppression, unsubscription and the reputation check, as for an SNS-reported bounce.
        await this.bounces.bounced(email).catch((err: unknown) => this.log.error({ err, emailId: email.id }, 'applying a send-time bounce failed'));
      }
      return;
    }
    if (attempt.isLast) {
      if (await this.persist(email.id, () => this.store.markFailed(email.id, `gave up after repeated temporary failures: ${failure.message}`, ['sending']))) this.count('failed');
      return;
    }
    // Nothing was accepted: back to queued so the retry (BullMQ backoff) can claim it again.
    await this.persist(email.id, () => this.store.release(email.id, failure.message));
    throw failure;
  }

  /**
   * The transport accepted the message: status and `email.sent` (+ `email.delivery`) events are
   * one statement, written through `persist` (a retry of the job must not resend).
   */
  private async recordSent(email: LoadedEmail, subject: string, messageId: string, result: TransportResult): Promise<void> {
    const events = this.events.payloads(email, subject, result.delivered ? ['email.sent', 'email.delivery'] : ['email.sent']);
    const { recorded } = await this.persist(email.id, () =>
      this.store.markSent(email.id, { subject, messageId, providerMessageId: result.providerMessageId, delivered: result.delivered, events }),
    );
    if (recorded) {
      this.count(result.delivered ? 'delivered' : 'sent');
      appMetrics.handover(this.transport.kind, (Date.now() - email.queuedAt.getTime()) / 1000);
    }
  }

  /**
   * The write of an outcome the transport already gave: retried in place with backoff (up to 5 s
   * apart) for as long as the database stays unreachable, up to `OUTCOME_WRITE_MS`. Handing the
   * message over again is never the answer; a write that lands after the lease ran out still
   * counts (`markSent` also takes an `uncertain` email).
   */
  private async persist<T>(emailId: string, write: () => Promise<T>): Promise<T> {
    const giveUpAt = Date.now() + OUTCOME_WRITE_MS;
    for (let i = 0; ; i++) {
      try {
        return await write();
      } catch (err) {
        if (Date.now() >= giveUpAt) throw err;
        if (i === 0 || i % 20 === 0) this.log.warn({ err, emailId }, 'recording the outcome of a hand-over failed; retrying the write');
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** i)));
      }
    }
  }

  /** An email reached `status` through this process's transport (the operator's `mailroom_emails_total`). */
  private count(status: EmailStatus): void {
    appMetrics.email(status, this.transport.kind);
  }

  private async emit(email: LoadedEmail, subject: string, names: Parameters<EmailEvents['emit']>[2], extra?: Record<string, unknown>): Promise<void> {
    try {
      await this.events.emit(email, subject, names, extra);
    } catch (err) {
      this.log.error({ err, emailId: email.id, names }, 'could not record email events');
    }
  }
}
