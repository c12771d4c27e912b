import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { returnedRows } from '../../../platform/database/query-results';
import type { EventRow } from '../events.types';

/** The channel the events table's statement trigger notifies on commit (migration EventOutbox). */
export const EVENTS_CHANNEL = 'mailroom_events';

/**
 * The event outbox's state in SQL: each consumer's cursor over `events.seq` and its lease
 * (event_consumer_cursors), the committed events past a cursor, and the commit-time notification.
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

  /**
   * One write leases, for `holder`, those of these consumers with events past their cursor (an
   * idle round, or one while another process holds the leases, matches no row and writes nothing).
   */
  async leaseDue(consumers: string[], holder: string, leaseSeconds: number): Promise<Array<{ consumer: string; last_seq: string }>> {
    const result: unknown = await this.dataSource.query(
      `UPDATE event_consumer_cursors c SET leased_until = now() + make_interval(secs => $3), leased_by = $2
        WHERE c.consumer = ANY($1::text[]) AND (c.leased_until IS NULL OR c.leased_until < now() OR c.leased_by = $2)
          AND EXISTS (SELECT 1 FROM events e WHERE e.seq > c.last_seq)
        RETURNING c.consumer, c.last_seq`,
      [consumers, holder, leaseSeconds],
    );
    return returnedRows<{ consumer: string; last_seq: string }>(result);
  }

  /** Advances the cursors of the consumers that handled their batch and gives every lease of `holder` back, in one write. */
  async advanceAndRelease(holder: string, leased: string[], advanced: Array<{ consumer: string; seq: string }>): Promise<void> {
    await this.dataSource.query(
      `UPDATE event_consumer_cursors c
          SET last_seq = coalesce(a.seq, c.last_seq), updated_at = CASE WHEN a.seq IS NULL THEN c.updated_at ELSE now() END,
              leased_until = NULL, leased_by = NULL
         FROM unnest($2::text[]) AS l(consumer)
         LEFT JOIN unnest($3::text[], $4::bigint[]) AS a(consumer, seq) ON a.consumer = l.consumer
        WHERE c.consumer = l.consumer AND c.leased_by = $1`,
      [holder, leased, advanced.map((a) => a.consumer), advanced.map((a) => a.seq)],
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
