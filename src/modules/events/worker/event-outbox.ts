import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { Client } from 'pg';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ADVISORY_LOCKS } from '../../../platform/database/advisory-locks';
import { SingletonLocks } from '../../../platform/database/singleton-locks';
import { logger } from '../../../platform/logging/logger';
import { PeriodicRound } from '../../../platform/queues/periodic-round';
import { TickClock } from '../../../platform/queues/tick-clock';
import { runsOnWorkers } from '../../../platform/queues/worker-only';
import { fromEventRow, StoredEvent } from '../events.types';
import { EventConsumer, EventConsumerRegistry } from '../outbox/event-consumers';
import { EventCursorsStore } from '../outbox/event-cursors.store';
import { consumable, GapWatch } from '../outbox/gap-horizon';

const log = logger('event-outbox');

/** Backstop poll: a lost notification (listener reconnecting) delays delivery by at most this. */
const POLL_MS = 1_000;
/**
 * Shortest gap between two drains. Under load every commit notifies; draining once per gap hands
 * consumers bigger batches and spares PostgreSQL a cursor round per commit, for at
 * most this much latency.
 */
const DRAIN_GAP_MS = 50;
const BATCH = 500;
const RECONNECT_MS = 2_000;

/**
 * The durable event outbox: each registered consumer has a cursor row over `events.seq`; worker
 * processes (ROLE worker/all) lock a consumer (`SingletonLocks`: one process at a time, and a
 * killed holder's locks are free at once, so a survivor takes over at its next poll), hand it the
 * next committed events in order and advance the cursor. A PostgreSQL NOTIFY from the events table's trigger (sent only when the
 * writing transaction commits, whichever module or process wrote) wakes them at once; a poll
 * catches anything missed. Delivery is at least once: a crash between `handle` and the cursor
 * update hands the batch again.
 */
@Injectable()
export class EventOutbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly watches = new Map<string, GapWatch | null>();
  private readonly ensured = new Set<string>();
  private listener: Client | undefined;
  /** Drains: one at a time; a nudge or poll during one asks for one more, DRAIN_GAP_MS after it (nudges coalesce). */
  private readonly rounds: PeriodicRound;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly store: EventCursorsStore,
    private readonly registry: EventConsumerRegistry,
    private readonly locks: SingletonLocks,
    schedule: SchedulerRegistry,
  ) {
    this.rounds = new PeriodicRound(
      new TickClock(schedule, 'event-outbox'),
      () => this.drainAll(),
      (err) => log.error({ err }, 'event outbox drain failed'),
      { rerunAfterMs: DRAIN_GAP_MS },
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!runsOnWorkers(this.config)) return;
    await this.listen();
    this.rounds.start(this.config, POLL_MS);
    this.nudge();
  }

  async beforeApplicationShutdown(): Promise<void> {
    const stopped = this.rounds.stop();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await stopped;
  }

  /** Runs a drain now, or once more after the running one (calls coalesce). */
  nudge(): void {
    void this.rounds.runNow();
  }

  private get stopped(): boolean {
    return this.rounds.stopped;
  }

  /** Rounds until every consumer is caught up (or held by another process). */
  private async drainAll(): Promise<void> {
    const consumers = this.registry.all();
    for (const consumer of consumers) await this.ensureCursor(consumer);
    // A consumer that holds off (`mayRun`) is left out of that round; the 1 s poll brings it back.
    while (!this.stopped && (await this.round(consumers.filter((c) => c.mayRun?.() ?? true))));
  }

  /**
   * The consumer's cursor row, created on first sight: a new consumer starts with the events
   * created since it was registered, not the whole history.
   */
  private async ensureCursor(consumer: EventConsumer): Promise<void> {
    if (this.ensured.has(consumer.name)) return;
    await this.store.ensureCursor(consumer.name, this.registry.registeredAt(consumer.name) ?? new Date());
    this.ensured.add(consumer.name);
  }

  /**
   * One round for every consumer: those with events past their cursor are locked (a consumer
   * another process is running is left to it), the events after each distinct cursor are read
   * once (consumers that keep up share one cursor, so one read), each consumer is handed its
   * batch, one write advances the cursors of those that handled theirs, and the locks are given
   * back. A consumer that throws keeps its cursor (its batch is handed again next round) without
   * holding the others back. True when some consumer took a full batch, so more may be waiting.
   */
  private async round(consumers: EventConsumer[]): Promise<boolean> {
    // An idle round reads which consumers are due and takes no lock.
    const due = await this.store.due(consumers.map((c) => c.name));
    if (due.length === 0) return false;
    const locked = await this.locks.tryLock(ADVISORY_LOCKS.eventConsumers, due);
    if (locked.length === 0) return false;
    try {
      return await this.runLocked(consumers, locked);
    } finally {
      await this.locks.unlock(ADVISORY_LOCKS.eventConsumers, locked);
    }
  }

  private async runLocked(consumers: EventConsumer[], locked: string[]): Promise<boolean> {
    // Read once the locks are held: the cursors as the previous holder left them.
    const cursors = await this.store.cursors(locked);
    const byName = new Map(consumers.map((c) => [c.name, c]));
    const atCursor = new Map<string, EventConsumer[]>();
    for (const { consumer, last_seq } of cursors) {
      const found = byName.get(consumer);
      if (!found) continue;
      const group = atCursor.get(last_seq);
      if (group) group.push(found);
      else atCursor.set(last_seq, [found]);
    }
    const advanced: Array<{ consumer: string; seq: string }> = [];
    let more = false;
    let failure: unknown;
    try {
      for (const [lastSeq, group] of atCursor) {
        if (this.stopped) break;
        if (await this.handOut(lastSeq, group, advanced)) more = true;
      }
    } catch (err) {
      failure = err;
    }
    // Advances the cursors of the consumers that handled their batch in one write.
    try {
      await this.store.advance(advanced);
    } catch (err) {
      if (failure === undefined) throw err;
      log.warn({ err, consumers: locked }, 'could not advance event consumer cursors; their batches are handed again');
    }
    if (failure !== undefined) throw failure;
    return more;
  }

  /**
   * The events after one cursor, read once, handed to each consumer at that cursor as far as no
   * gap stops it; those that handled theirs are added to `advanced`. True when one took a full batch.
   */
  private async handOut(lastSeq: string, group: EventConsumer[], advanced: Array<{ consumer: string; seq: string }>): Promise<boolean> {
    const rows = await this.store.eventsAfterAcrossProjects(lastSeq, BATCH);
    if (rows.length === 0) return false;
    // Taken after the read, so it covers every transaction that could still fill a gap in it.
    const snapshot = await this.store.snapshot();
    const cursor = BigInt(lastSeq);
    const seqs = rows.map((r) => BigInt(r.seq));
    const events: StoredEvent[] = rows.map(fromEventRow);
    let full = false;
    for (const consumer of group) {
      const { count, watch } = consumable(cursor, seqs, this.watches.get(consumer.name) ?? null, snapshot, Date.now());
      this.watches.set(consumer.name, watch);
      if (count === 0) continue;
      try {
        await consumer.handle(count === events.length ? events : events.slice(0, count));
      } catch (err) {
        log.error({ err, consumer: consumer.name }, 'event consumer failed; its batch is handed again');
        continue;
      }
      advanced.push({ consumer: consumer.name, seq: rows[count - 1].seq });
      if (count === BATCH) full = true;
    }
    return full;
  }

  /** A dedicated connection LISTENs for the trigger's commit-time notification. */
  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = this.store.listenerClient();
    client.on('notification', () => this.nudge());
    client.on('error', (err) => {
      log.warn({ err }, 'event outbox listener lost its connection; reconnecting');
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
      setTimeout(() => void this.listen(), RECONNECT_MS).unref();
    });
    try {
      await this.store.listen(client);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.listener = client;
    } catch (err) {
      log.warn({ err }, 'event outbox listener could not connect; polling until it does');
      void client.end().catch(() => undefined);
      setTimeout(() => void this.listen(), RECONNECT_MS).unref();
    }
  }
}
