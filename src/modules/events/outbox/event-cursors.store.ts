import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { EventRow } from '../events.types';

/** The channel the events table's statement trigger notifies on commit (migration EventOutbox). */
export const EVENTS_CHANNEL = 'mailroom_events';

/**
 * The event outbox's state in SQL: each consumer's cursor over `events.seq` (event_consumer_cursors), the committed events past a cursor, and the commit-time notification.
 * The outbox reads every project's events in one order, so nothing here is project-scoped.
 */
@Injectable()
export class EventCursorsStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The consumer's cursor row, created on first sight at the last event created before `registeredAt` (not the whole history). */
  async ensureCursor(consumer: string, registeredAt: Date): Promise<void> {
    const existing: unknown[] = await this.dataSource.query(`SELECT 1 FROM event_consumer_cursors WHERE consumer = $1`, [consumer]);
    if (existing.length > 0) return;
    await this.dataSource.query(
      `INSERT INTO event_consumer_cursors (consumer, last_seq)
       VALUES ($1, (SELECT coalesce(max(seq), 0) FROM events WHERE created_at < $2))
       ON CONFLICT (consumer) DO NOTHING`,
      [consumer, registeredAt],
    );
  }

  /** Those of these consumers with events past their cursor (an idle round reads this and nothing more). */
  async due(consumers: string[]): Promise<string[]> {
    const rows: Array<{ consumer: string }> = await this.dataSource.query(
      `SELECT c.consumer FROM event_consumer_cursors c WHERE c.consumer = ANY($1::text[]) AND EXISTS (SELECT 1 FROM events e WHERE e.seq > c.last_seq)`,
      [consumers],
    );
    return rows.map((r) => r.consumer);
  }

  /** The cursors of these consumers, read once their locks are held (so after any advance their previous holder made). */
  cursors(consumers: string[]): Promise<Array<{ consumer: string; last_seq: string }>> {
    return this.dataSource.query(`SELECT consumer, last_seq FROM event_consumer_cursors WHERE consumer = ANY($1::text[])`, [consumers]);
  }

  /** Advances the cursors of the consumers that handled their batch, in one write; a cursor never moves back. */
  async advance(advanced: Array<{ consumer: string; seq: string }>): Promise<void> {
    if (advanced.length === 0) return;
    await this.dataSource.query(
      `UPDATE event_consumer_cursors c SET last_seq = greatest(c.last_seq, a.seq), updated_at = now()
         FROM unnest($1::text[], $2::bigint[]) AS a(consumer, seq)
        WHERE c.consumer = a.consumer`,
      [advanced.map((a) => a.consumer), advanced.map((a) => a.seq)],
    );
  }

  /** The committed events of every project after `lastSeq`, in `seq` order. */
  eventsAfterAcrossProjects(lastSeq: string, limit: number): Promise<Array<EventRow & { seq: string }>> {
    return this.dataSource.query(`SELECT seq, id, project_id, contact_id, name, data, created_at FROM events WHERE seq > $1 ORDER BY seq LIMIT $2`, [lastSeq, limit]);
  }

  /** The current snapshot's bounds: which transactions may still commit events below the seqs read. */
  async snapshot(): Promise<{ xmin: bigint; xmax: bigint }> {
    const [snap]: Array<{ xmin: string; xmax: string }> = await this.dataSource.query(
      `SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax FROM pg_current_snapshot() AS s`,
    );
    return { xmin: BigInt(snap.xmin), xmax: BigInt(snap.xmax) };
  }

  /** A client for a dedicated connection, not yet connected (the caller attaches its handlers first). */
  listenerClient(): Client {
    return new Client({ connectionString: (this.dataSource.options as { url: string }).url });
  }

  /** Connects the client and LISTENs for the events table's commit-time notification. */
  async listen(client: Client): Promise<void> {
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
  }
}
