import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { logger } from '../../platform/logging/logger';
import { EVENT_COLUMNS, EventListener, EventRow, fromEventRow, RecordEventInput, StoredEvent } from './events.types';

const log = logger('events');

interface Pending {
  event: StoredEvent;
  depth: number;
}

/**
 * Stores events (tracked and system ones) and tells in-process listeners after the row is
 * committed. A write inside a caller's transaction is held until that transaction commits
 * (TypeORM's commit hook) and dropped if it rolls back.
 */
@Injectable()
export class EventsService implements OnModuleInit, EntitySubscriberInterface {
  private readonly listeners: EventListener[] = [];
  private readonly pending = new WeakMap<QueryRunner, Pending[]>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    // Subscribers are normally declared in the data source options; adding this one here keeps
    // the hook inside the events module.
    (this.dataSource.subscribers as EntitySubscriberInterface[]).push(this);
  }

  async record(projectId: string, input: RecordEventInput, manager?: EntityManager): Promise<StoredEvent> {
    const rows: EventRow[] = await (manager ?? this.dataSource.manager).query(
      `INSERT INTO events (project_id, contact_id, name, data) VALUES ($1, $2, $3, $4::jsonb) RETURNING ${EVENT_COLUMNS}`,
      [projectId, input.contactId, input.name, JSON.stringify(input.data ?? {})],
    );
    const event = fromEventRow(rows[0]);
    this.recorded([event], manager);
    return event;
  }

  onRecorded(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /**
   * Announces events written by this module's own SQL (e.g. the contact upsert statement).
   * Inside an active transaction the announcement waits for its commit.
   */
  recorded(events: StoredEvent[], manager?: EntityManager): void {
    if (events.length === 0) return;
    const runner = manager?.queryRunner;
    if (runner?.isTransactionActive) {
      const depth = (runner as unknown as { transactionDepth: number }).transactionDepth ?? 1;
      const list = this.pending.get(runner) ?? [];
      for (const event of events) list.push({ event, depth });
      this.pending.set(runner, list);
      return;
    }
    this.dispatch(events);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const runner = event.queryRunner;
    const list = this.pending.get(runner);
    if (!list) return;
    if (runner.isTransactionActive) {
      // A released savepoint: its events now belong to the enclosing level.
      const depth = (runner as unknown as { transactionDepth: number }).transactionDepth ?? 1;
      for (const p of list) p.depth = Math.min(p.depth, depth);
      return;
    }
    this.pending.delete(runner);
    this.dispatch(list.map((p) => p.event));
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    const runner = event.queryRunner;
    const list = this.pending.get(runner);
    if (!list) return;
    if (!runner.isTransactionActive) {
      this.pending.delete(runner);
      return;
    }
    const depth = (runner as unknown as { transactionDepth: number }).transactionDepth ?? 0;
    this.pending.set(
      runner,
      list.filter((p) => p.depth <= depth),
    );
  }

  private dispatch(events: StoredEvent[]): void {
    if (this.listeners.length === 0) return;
    for (const event of events) {
      for (const listener of this.listeners) {
        // Listeners run after the response path; their failures are logged, never the caller's.
        void Promise.resolve()
          .then(() => listener(event))
          .catch((error: unknown) => log.error({ err: error, eventId: event.id, name: event.name }, 'event listener failed'));
      }
    }
  }
}
