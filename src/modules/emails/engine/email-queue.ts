import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobsOptions, Queue, WorkerOptions } from 'bullmq';
import { logger } from '../../../platform/logging/logger';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import { TEMPLATE_TYPES } from '../../templates';
import type { EmailType } from '../entities/email.entity';
import { Batcher } from '../../../platform/batching/batcher';
import { currentJobTrace, type JobTrace } from '../../../platform/telemetry/telemetry';
import { beforeDeadline } from '../../../platform/http/request-deadline';

/** Time kept, before a request's deadline, to answer once the rows are committed (the sweep enqueues what is left). */
const ENQUEUE_ANSWER_MARGIN_MS = 500;

/**
 * Retries are job options. Temporary failures (SMTP 4xx, network, SES throttling) back off
 * exponentially from 3 s over 10 attempts (about 25 minutes in all); permanent ones are not
 * retried (the pipeline records them and completes the job).
 */
export const EMAIL_JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 3_000 },
  removeOnComplete: { age: 600, count: 5_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** BullMQ takes unprioritized jobs first, so transactional mail needs none and bulk mail waits behind it. */
const BULK_PRIORITY = 10;

/**
 * Emails per grouped job. A group's emails are loaded, claimed and recorded together (a few
 * statements for the group instead of a few per email), and the queue does one job's work for
 * all of them; each email is still claimed on its own, so exactly-once holds per email.
 */
export const EMAILS_PER_JOB = 50;

export interface Enqueue {
  ids: string[];
  type: EmailType;
  /** One job per email with job id = email id (the sweep: an email whose job exists is not added twice). */
  alone: boolean;
  /** Campaign mail: behind transactional mail whatever its type. */
  bulk?: boolean;
  /** The caller's trace (OpenTelemetry on), taken here: the batch's round trip runs in the first caller's context. */
  trace?: JobTrace;
}

@Injectable()
export class EmailQueue {
  private readonly log = logger('email-queue');
  /** Concurrent requests share one `addBulk` round trip. */
  private readonly adds: Batcher<Enqueue, undefined>;

  constructor(@InjectQueue(QUEUES.emailSend) private readonly queue: Queue<JobPayloads['email-send']>) {
    this.adds = new Batcher({ runBatch: async (batches) => (await this.queue.addBulk(jobsFor(batches)), batches.map(() => undefined)) });
  }

  /**
   * The send budget every worker process shares: BullMQ's global rate limit, kept with the queue
   * (the last worker process to start sets it); `undefined` removes a budget set before.
   */
  async setSendBudget(limiter: WorkerOptions['limiter']): Promise<void> {
    if (limiter) await this.queue.setGlobalRateLimit(limiter.max, limiter.duration);
    else await this.queue.removeGlobalRateLimit();
  }

  /** One job per email, job id = email id: enqueuing an email twice (the sweep) adds one job. */
  async enqueue(emailIds: string[], type: EmailType): Promise<void> {
    if (emailIds.length === 0) return;
    await this.adds.run({ ids: emailIds, type, alone: true, trace: currentJobTrace() });
  }

  /**
   * New emails, in jobs of up to `EMAILS_PER_JOB` (concurrent callers' emails of one type share
   * jobs). Enqueued after the rows are committed; a failure here leaves rows `queued` for the
   * sweep to pick up. Inside an API request, a queue that does not answer is waited for only
   * until shortly before the request's deadline: the rows are committed, so the answer is 200.
   */
  async enqueueOrLeaveForSweep(emailIds: string[], type: EmailType, { bulk = false }: { bulk?: boolean } = {}): Promise<void> {
    if (emailIds.length === 0) return;
    try {
      await beforeDeadline(this.adds.run({ ids: emailIds, type, alone: false, bulk, trace: currentJobTrace() }), ENQUEUE_ANSWER_MARGIN_MS);
    } catch (err) {
      this.log.error({ err, count: emailIds.length }, 'enqueue failed; the sweep will retry');
    }
  }

  /**
   * Emails of a grouped job that go on alone, each in a job of its own: all of them when a rate
   * limit counts jobs as emails (`retry: false`), or those that failed temporarily (`retry: true`:
   * the attempts left after the group's, the first after the backoff's delay).
   */
  async requeueAlone(emailIds: string[], priority: number | undefined, { retry }: { retry: boolean }): Promise<void> {
    if (emailIds.length === 0) return;
    const afterFailure: JobsOptions = retry ? { attempts: EMAIL_JOB_OPTIONS.attempts! - 1, delay: FIRST_RETRY_DELAY_MS } : {};
    const trace = traced(currentJobTrace());
    await this.queue.addBulk(emailIds.map((emailId) => singleJob(emailId, priority, afterFailure, trace)));
  }
}

/** The first retry of an email from a group waits as long as BullMQ's backoff would have. */
const FIRST_RETRY_DELAY_MS = (EMAIL_JOB_OPTIONS.backoff as { delay: number }).delay;

type SendJob = { name: string; data: JobPayloads['email-send']; opts: JobsOptions };

/** The payload's `trace` field: absent unless there is a trace to carry (telemetry off: payloads unchanged). */
function traced(...traces: Array<JobTrace | undefined>): { trace?: JobTrace[] } {
  const distinct = [...new Map(traces.flatMap((t) => (t ? [[t.traceparent, t] as const] : []))).values()];
  return distinct.length > 0 ? { trace: distinct } : {};
}

/** One email's job: job id = email id, so adding it again while it exists adds nothing. */
function singleJob(emailId: string, priority: number | undefined, extra: JobsOptions = {}, trace: { trace?: JobTrace[] } = {}): SendJob {
  return { name: 'send', data: { emailId, ...trace }, opts: { ...EMAIL_JOB_OPTIONS, jobId: emailId, priority, ...extra } };
}

/** The jobs for concurrent enqueue calls: single ones as asked, the rest grouped by type, `EMAILS_PER_JOB` at most. */
export function jobsFor(batches: Enqueue[]): SendJob[] {
  const jobs: SendJob[] = [];
  for (const [type, bulk] of TEMPLATE_TYPES.flatMap((t) => [[t, false], [t, true]] as const)) {
    const priority = type === 'TRANSACTIONAL' && !bulk ? undefined : BULK_PRIORITY;
    const ofType = batches.filter((b) => b.type === type && (b.bulk ?? false) === bulk);
    for (const b of ofType.filter((b) => b.alone)) for (const emailId of b.ids) jobs.push(singleJob(emailId, priority, {}, traced(b.trace)));
    const grouped = ofType.filter((b) => !b.alone).flatMap((b) => b.ids.map((id) => ({ id, trace: b.trace })));
    for (let i = 0; i < grouped.length; i += EMAILS_PER_JOB) {
      const group = grouped.slice(i, i + EMAILS_PER_JOB);
      const trace = traced(...group.map((e) => e.trace));
      jobs.push(group.length === 1 ? singleJob(group[0].id, priority, {}, trace) : { name: 'send', data: { emailIds: group.map((e) => e.id), ...trace }, opts: { ...EMAIL_JOB_OPTIONS, priority } });
    }
  }
  return jobs;
}
