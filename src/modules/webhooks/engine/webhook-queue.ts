import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { JobPayloads, QUEUES } from '../../../platform/queues/queues';
import type { DeliveryKind } from '../entities/webhook-delivery.entity';

type Payload = JobPayloads['webhook-delivery'];

/**
 * A job that throws (the database unreachable) is retried briefly; the attempts themselves are
 * never retried by the queue: their schedule is the delivery's, in the database.
 */
export const DELIVERY_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** Deliveries per grouped job: claimed in one statement, sent side by side, recorded in one statement. */
export const DELIVERIES_PER_JOB = 25;

/** BullMQ takes unprioritized jobs first: replayed deliveries (and their retries) wait behind every new event's. */
export const REPLAY_PRIORITY = 100;

/** Jobs a process runs at once: enough to keep `WEBHOOK_CONCURRENCY` requests in flight (the sender bounds them), and one more group waiting. */
export const workerSlots = (concurrency: number): number => Math.max(2, Math.ceil(concurrency / DELIVERIES_PER_JOB) + 1);

/** Requests of replayed deliveries a process has in flight at most: a quarter of `WEBHOOK_CONCURRENCY`, so new events always find room. */
export const replaySlots = (concurrency: number): number => Math.max(1, Math.floor(concurrency / 4));

/**
 * Replayed deliveries per job: small enough that replay jobs filling every worker slot never wait
 * for a replay slot, so each ends after one attempt's time and a new event's job (taken first)
 * gets a slot within about one answer of a slow receiver.
 */
export const replayGroupSize = (concurrency: number): number => Math.max(1, Math.floor(replaySlots(concurrency) / workerSlots(concurrency)));
const priorityOf = (kind: DeliveryKind): number | undefined => (kind === 'replay' ? REPLAY_PRIORITY : undefined);

/**
 * Fairness between projects' new events: a job of new deliveries is queued behind its project's
 * backlog (its pending deliveries when the fan-out ran, in jobs): priority 1 per backlog job ahead
 * of it, at most `REPLAY_PRIORITY - 1`, none (taken first) for a project with nothing pending.
 * BullMQ takes the lowest priority first, in queue order among equals, so a project flooding a
 * slow receiver never delays another project's first attempt by more than the time a worker slot
 * takes to free (about one answer of the slow receiver): that project's job goes ahead of the
 * flood's, and the flood's own jobs keep their order. The backlog is read from the database, so
 * it holds across processes; a stale count only misplaces a job among the flood's own.
 * Chosen over a per-project share of `WEBHOOK_CONCURRENCY`: a job waiting for its project's share
 * would hold a worker slot, and the slots are few (`workerSlots`).
 */
export const BACKLOG_PRIORITY_MAX = REPLAY_PRIORITY - 1;

/** The priority of a project's `index`-th new job (from 0) behind `backlog` pending deliveries; undefined: none, taken first. */
export const backlogPriority = (backlog: number, index: number): number | undefined => {
  const ahead = Math.floor(backlog / DELIVERIES_PER_JOB) + index;
  return ahead === 0 ? undefined : Math.min(ahead, BACKLOG_PRIORITY_MAX);
};

/**
 * Enqueues attempts. Job ids are deterministic, so a repeated enqueue adds nothing:
 * `f.<first id>` for the deliveries a fan-out, replay or sweep made together (each delivery is in
 * one such group), `r.<id>.<attempt>` for the retry after attempt number `attempt`, `m.<id>.<attempt>`
 * for a retry by hand, `s.<id>.<attempt>.<minute>` for the sweep. The database decides whether a
 * job still has work: a delivery no longer pending and due is not attempted.
 */
@Injectable()
export class WebhookQueue {
  private readonly log = logger('webhook-queue');

  private readonly replayGroup: number;

  constructor(
    @InjectQueue(QUEUES.webhookDelivery) private readonly queue: Queue<Payload>,
    @InjectConfig() config: AppConfig,
  ) {
    this.replayGroup = replayGroupSize(config.webhooks.concurrency);
  }

  /** A replay's new deliveries, in groups behind new events. */
  async enqueueReplay(ids: string[]): Promise<void> {
    const jobs = [];
    for (let i = 0; i < ids.length; i += this.replayGroup) jobs.push(this.groupJob('p', ids.slice(i, i + this.replayGroup), REPLAY_PRIORITY));
    await this.addGroups(jobs, ids.length);
  }

  /** A fan-out's new deliveries, in groups per project, each project's behind its backlog (`backlogPriority`). */
  async enqueueNew(projects: Array<{ ids: string[]; backlog: number }>): Promise<void> {
    const jobs = [];
    for (const { ids, backlog } of projects) {
      for (let i = 0; i < ids.length; i += DELIVERIES_PER_JOB) jobs.push(this.groupJob('f', ids.slice(i, i + DELIVERIES_PER_JOB), backlogPriority(backlog, i / DELIVERIES_PER_JOB)));
    }
    await this.addGroups(jobs, projects.reduce((n, p) => n + p.ids.length, 0));
  }

  private groupJob(prefix: string, deliveryIds: string[], priority: number | undefined) {
    return { name: 'deliver', data: { deliveryIds }, opts: { ...DELIVERY_JOB_OPTIONS, jobId: `${prefix}.${deliveryIds[0]}`, priority } };
  }

  /** Grouped jobs; a failure is logged and left to the sweep (the rows are due). */
  private async addGroups(jobs: Array<{ name: string; data: Payload; opts: JobsOptions }>, count: number): Promise<void> {
    if (jobs.length === 0) return;
    try {
      for (let i = 0; i < jobs.length; i += 500) await this.queue.addBulk(jobs.slice(i, i + 500));
    } catch (err) {
      this.log.error({ err, count }, 'enqueue failed; the sweep will enqueue the deliveries');
    }
  }

  /** The next attempts after failed ones, each delayed until it is due. */
  async enqueueRetries(retries: Array<{ id: string; attempts: number; dueAt: Date; kind: DeliveryKind }>): Promise<void> {
    if (retries.length === 0) return;
    const now = Date.now();
    try {
      await this.queue.addBulk(
        retries.map((r) => ({
          name: 'deliver',
          data: { deliveryIds: [r.id] },
          opts: { ...DELIVERY_JOB_OPTIONS, jobId: `r.${r.id}.${r.attempts}`, delay: Math.max(0, r.dueAt.getTime() - now), priority: priorityOf(r.kind) },
        })),
      );
    } catch (err) {
      this.log.error({ err, count: retries.length }, 'enqueue of retries failed; the sweep will enqueue them when due');
    }
  }

  /** A retry by hand: an attempt now. */
  async enqueueNow(id: string, attempts: number): Promise<void> {
    await this.queue.add('deliver', { deliveryIds: [id] }, { ...DELIVERY_JOB_OPTIONS, jobId: `m.${id}.${attempts}` });
  }

  /** The sweep's overdue deliveries: a fresh job id per minute, as an older job may have been kept (failed). */
  async enqueueOverdue(rows: Array<{ id: string; attempts: number; kind: DeliveryKind }>): Promise<void> {
    if (rows.length === 0) return;
    const minute = Math.floor(Date.now() / 60_000);
    await this.queue.addBulk(
      rows.map((r) => ({ name: 'deliver', data: { deliveryIds: [r.id] }, opts: { ...DELIVERY_JOB_OPTIONS, jobId: `s.${r.id}.${r.attempts}.${minute}`, priority: priorityOf(r.kind) } })),
    );
  }
}
