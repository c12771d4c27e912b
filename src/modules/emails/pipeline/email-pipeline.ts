import { Inject, Injectable } from '@nestjs/common';
import { LiquidError } from 'liquidjs';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ConcurrencyLimit } from '../../../platform/batching/concurrency-limit';
import { logger } from '../../../platform/logging/logger';
import { appMetrics } from '../../../platform/metrics/metrics';
import type { EmailStatus } from '../entities/email.entity';
import { SEND_LIMITS } from '../send/send-request';
import { EMAIL_TRANSPORT, EmailTransport, TransportError, TransportResult } from '../transports/email-transport';
import { composeMime } from './compose-mime';
import { DeliveryFeedbackService } from '../inbound/delivery-feedback.service';
import { EmailEvents } from './email-events';
import { EmailStatusStore, LoadedEmail } from './email-status';
import { MessageBuilder, UnbuildableEmailError } from './message-builder';

/** Another worker holds the email's lease; the job is retried after the backoff. */
export class LeaseHeldError extends Error {
  constructor(emailId: string) {
    super(`email ${emailId} is being sent by another worker`);
  }
}

const INTERRUPTED =
  'interrupted while being handed to the transport (worker stopped); not resent because the transport may already have accepted it';

/**
 * Sends one email: load → build (render, headers, DKIM) → claim → hand to the transport →
 * record the outcome and emit events. Idempotent per email id: a job that finds the email
 * already past `queued` does nothing.
 *
 * Crash safety. The row moves to `sending` (with a lease) only just before the hand-over (with a
 * pooled transport, once one of its connections is free), and the outcome is written right after it. A crash inside that window leaves the email `sending`;
 * when its lease has run out, a retry marks it `failed` instead of sending again. So the email
 * is sent at most once: the price is that a crash between the transport accepting the message
 * and our write reports as `failed` an email that was in fact sent (a window of milliseconds).
 * Everything before the claim (rendering, composing) may run any number of times.
 */
@Injectable()
export class EmailPipeline {
  private readonly log = logger('email-pipeline');
  private inFlight = 0;
  /** `SEND_CONCURRENCY`: emails this process works on at once, from single and grouped jobs alike. */
  private readonly slots: ConcurrencyLimit;
  /** The transport's hand-over slots (`handoverSlots`), held from the claim to the transport's answer. */
  private readonly handovers?: ConcurrencyLimit;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly store: EmailStatusStore,
    private readonly builder: MessageBuilder,
    @Inject(EMAIL_TRANSPORT) private readonly transport: EmailTransport,
    private readonly events: EmailEvents,
    private readonly feedback: DeliveryFeedbackService,
  ) {
    this.slots = new ConcurrencyLimit(config.email.sendConcurrency);
    if (transport.handoverSlots) this.handovers = new ConcurrencyLimit(transport.handoverSlots);
  }

  deliver(emailId: string, attempt: { isLast: boolean }): Promise<void> {
    return this.slots.run(() => this.deliverNow(emailId, attempt));
  }

  private async deliverNow(emailId: string, attempt: { isLast: boolean }): Promise<void> {
    const email = await this.store.load(emailId);
    if (!email) return;
    if (email.status === 'sending') {
      if (email.leaseActive) throw new LeaseHeldError(emailId);
      if (await this.store.markFailed(emailId, INTERRUPTED, ['sending'])) this.count('failed');
      return;
    }
    if (email.status !== 'queued') return;

    let built;
    try {
      built = await this.builder.build(email, { ownDkim: this.transport.signsWithOwnDkim });
    } catch (err) {
      // A campaign contact whose data the template cannot render is skipped; the campaign goes on.
      if (err instanceof LiquidError && email.campaignId) {
        if (await this.store.markSkipped(emailId, 'render_error')) this.count('skipped');
        return;
      }
      if (err instanceof LiquidError || err instanceof UnbuildableEmailError || attempt.isLast) {
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
    const outcome = await this.handOver(email, message.subject, message.messageId, raw);
    if (outcome === 'lost') return;
    if ('error' in outcome) await this.onTransportError(email, message.subject, outcome.error, attempt);
    else await this.recordSent(email, message.subject, message.messageId, outcome.result);
  }

  /**
   * Claims the email and gives it to the transport, inside one of the transport's hand-over
   * slots when it has them: an email waiting for a pooled connection is not claimed yet, so a
   * crash while it waits leaves it `queued` for a retry, and only the hand-over itself is the
   * at-most-once window. 'lost': another worker claimed it (or its status moved on).
   */
  private async handOver(email: LoadedEmail, subject: string, messageId: string, raw: Buffer): Promise<'lost' | { result: TransportResult } | { error: unknown }> {
    const claimAndSend = async (): Promise<'lost' | { result: TransportResult } | { error: unknown }> => {
      if (!(await this.store.claim(email.id, subject, messageId))) return 'lost';
      this.inFlight += 1;
      try {
        return { result: await this.transport.send({ emailId: email.id, envelope: { from: email.fromAddress, to: [email.toAddress] }, raw, messageId }) };
      } catch (error) {
        return { error };
      } finally {
        this.inFlight -= 1;
      }
    };
    return this.handovers ? this.handovers.run(claimAndSend) : claimAndSend();
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

  private async onTransportError(email: LoadedEmail, subject: string, err: unknown, attempt: { isLast: boolean }): Promise<void> {
    const failure = err instanceof TransportError ? err : new TransportError(err instanceof Error ? err.message : String(err), false);
    if (failure.permanent) {
      if (await this.store.markBounced(email.id, failure.message)) {
        this.count('bounced');
        appMetrics.feedback('bounce', 'Permanent');
        await this.emit(email, subject, ['email.bounce'], { bounceType: 'Permanent' });
        // Suppression, unsubscription and the reputation check, as for an SNS-reported bounce.
        await this.feedback.bouncedAtSend(email).catch((err: unknown) => this.log.error({ err, emailId: email.id }, 'applying a send-time bounce failed'));
      }
      return;
    }
    if (attempt.isLast) {
      if (await this.store.markFailed(email.id, `gave up after repeated temporary failures: ${failure.message}`, ['sending'])) this.count('failed');
      return;
    }
    // Nothing was accepted: back to queued so the retry (BullMQ backoff) can claim it again.
    await this.store.release(email.id, failure.message);
    throw failure;
  }

  /**
   * The transport accepted the message: status and `email.sent` (+ `email.delivery`) events are
   * one statement. The write is retried in place, since a retry of the job must not resend.
   */
  private async recordSent(email: LoadedEmail, subject: string, messageId: string, result: TransportResult): Promise<void> {
    const events = this.events.payloads(email, subject, result.delivered ? ['email.sent', 'email.delivery'] : ['email.sent']);
    for (let i = 0; ; i++) {
      try {
        const { recorded } = await this.store.markSent(email.id, { subject, messageId, providerMessageId: result.providerMessageId, delivered: result.delivered, events });
        if (recorded) {
          this.count(result.delivered ? 'delivered' : 'sent');
          appMetrics.handover(this.transport.kind, (Date.now() - email.queuedAt.getTime()) / 1000);
        }
        return;
      } catch (err) {
        if (i >= 4) throw err;
        this.log.warn({ err, emailId: email.id }, 'recording a sent email failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** i));
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
