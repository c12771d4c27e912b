import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { insertEventsSql } from './events-insert.sql';
import { EventRow, fromEventRow, RecordEventInput, StoredEvent } from './events.types';

/** One event of a set-based write; events of several projects may share one statement. */
export interface RecordEventRow extends RecordEventInput {
  projectId: string;
}

const RECORD_MANY_SQL = insertEventsSql(
  { projectId: "(x.e->>'project_id')::uuid", contactId: "x.e->>'contact_id'", name: "x.e->>'name'", data: "x.e->'data'" },
  'FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n) ORDER BY x.n',
);

/**
 * Stores events (tracked and system ones). Consumers never hear from this service directly: every
 * committed row reaches them through the event outbox (`outbox/`), in any process, whichever
 * module or transaction wrote it, so a write inside a caller's transaction needs nothing more.
 * Statements of other modules that store events in their own round trip embed `insertEventsSql`.
 */
@Injectable()
export class EventsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async record(projectId: string, input: RecordEventInput, manager?: EntityManager): Promise<StoredEvent> {
    const [event] = await this.recordMany([{ projectId, ...input }], manager);
    return event;
  }

  /** Many events in one statement, in the given order (inside the caller's transaction with `manager`). */
  async recordMany(events: RecordEventRow[], manager?: EntityManager): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const rows: EventRow[] = await (manager ?? this.dataSource.manager).query(
      RECORD_MANY_SQL,
      [JSON.stringify(events.map((e) => ({ project_id: e.projectId, contact_id: e.contactId, name: e.name, data: e.data ?? {} })))],
    );
    return rows.map(fromEventRow);
  }

  /** The `data` of the project's latest `limit` events with one of these names, newest first. */
  async recentData(projectId: string, names: string[], limit: number): Promise<Array<Record<string, unknown>>> {
    if (names.length === 0) return [];
    const rows: Array<{ data: Record<string, unknown> }> = await this.dataSource.query(
      `SELECT data FROM events WHERE project_id = $1 AND name = ANY($2::text[]) ORDER BY created_at DESC LIMIT $3`,
      [projectId, names, limit],
    );
    return rows.map((r) => r.data);
  }
}
