import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventsRepository } from './events.repository';
import { fromEventRow, RecordEventInput, StoredEvent } from './events.types';

/** One event of a set-based write; events of several projects may share one statement. */
export interface RecordEventRow extends RecordEventInput {
  projectId: string;
}

/**
 * Stores events (tracked and system ones). Consumers never hear from this service directly: every
 * committed row reaches them through the event outbox (`outbox/`), in any process, whichever
 * module or transaction wrote it, so a write inside a caller's transaction needs nothing more.
 * Statements of other modules that store events in their own round trip embed `insertEventsSql`.
 */
@Injectable()
export class EventsService {
  constructor(private readonly repository: EventsRepository) {}

  async record(projectId: string, input: RecordEventInput, manager?: EntityManager): Promise<StoredEvent> {
    const [event] = await this.recordMany([{ projectId, ...input }], manager);
    return event;
  }

  /** Many events in one statement, in the given order (inside the caller's transaction with `manager`). */
  async recordMany(events: RecordEventRow[], manager?: EntityManager): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    return (await this.repository.insertManyAcrossProjects(events, manager)).map(fromEventRow);
  }

  /** Deletes every event of the contact (its erasure), in `manager`'s transaction when given; the activity rollups keep counting them. */
  async removeOfContact(projectId: string, contactId: string, manager?: EntityManager): Promise<void> {
    await this.repository.deleteOfContactKeepingRollups(projectId, contactId, manager);
  }

  /** The `data` of the project's latest `limit` events with one of these names, newest first. */
  async recentData(projectId: string, names: string[], limit: number): Promise<Array<Record<string, unknown>>> {
    if (names.length === 0) return [];
    return this.repository.recentData(projectId, names, limit);
  }
}
