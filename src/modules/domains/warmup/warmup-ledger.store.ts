import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SENDER_AT_DOMAIN, TODAY_UTC, WARMUP_CAP, WARMUP_DAY } from './warmup-cap.sql';

/** Room left under the warm-up caps covering a sender on one day, with those caps' counters locked. */
export interface WarmupRoom {
  /** The warming domains covering the sender (none: no cap applies). */
  domainIds: string[];
  /** Days after today (0: today). */
  offset: number;
  /** What may still be written for that day: the smallest room of those domains; Infinity without one. */
  room: number;
  /** When that day starts (UTC midnight). */
  startsAt: Date;
}

/**
 * Locks (creating them at 0) the counters of the warming domains of the project covering the
 * sender for day `today + $3`, and returns their caps and counts. `ON CONFLICT DO UPDATE` with a
 * no-op takes the row lock and returns the latest committed count: writers that hold mail back
 * (campaign batches, workflow steps) serialise per domain and day, so the cap is exact for them.
 */
const LOCK_ROOM_SQL = `
  WITH w AS (
    SELECT d.id, ${WARMUP_CAP(`${WARMUP_DAY()} + $3::int`)} AS cap
      FROM domains d
     WHERE d.project_id = $1 AND d.warmup_enabled AND ${SENDER_AT_DOMAIN('$2::text')}
  ), k AS (
    INSERT INTO domain_send_counts AS k (domain_id, day, sent)
    SELECT id, ${TODAY_UTC} + $3::int, 0 FROM w ORDER BY id
    ON CONFLICT (domain_id, day) DO UPDATE SET sent = k.sent
    RETURNING k.domain_id, k.sent
  )
  SELECT w.id, GREATEST(w.cap - k.sent, 0) AS room, ((${TODAY_UTC} + $3::int)::timestamp AT TIME ZONE 'UTC') AS starts_at
    FROM w JOIN k ON k.domain_id = w.id`;

/** Tomorrow's UTC midnight when a warming domain covering the sender has no room left today (read only: no counter is created or locked). */
const HELD_UNTIL_SQL = `
  SELECT ((${TODAY_UTC} + 1)::timestamp AT TIME ZONE 'UTC') AS until
    FROM domains d LEFT JOIN domain_send_counts k ON k.domain_id = d.id AND k.day = ${TODAY_UTC}
   WHERE d.project_id = $1 AND d.warmup_enabled AND ${SENDER_AT_DOMAIN('$2::text')}
     AND coalesce(k.sent, 0) >= ${WARMUP_CAP(WARMUP_DAY())}
   LIMIT 1`;

const ADD_SQL = `UPDATE domain_send_counts SET sent = sent + $3 WHERE domain_id = ANY($1::uuid[]) AND day = ${TODAY_UTC} + $2::int`;

/** How far ahead a workflow's held mail is booked at most (a cap is at least one a day, so only a burst larger than this many days' caps reaches it). */
const MAX_BOOKING_DAYS = 366;

/**
 * The warm-up gate (docs/delivery-control.md, "Domain warm-up"), in the writer's transaction:
 * campaign batches take only today's room; workflow mail books the first days with room and
 * waits (`emails.not_before`) for the ones after today. Transactional mail is counted by the
 * emails' own insert (`countHandedInSql`) and never held.
 */
@Injectable()
export class WarmupLedger {
  /** Today's room under the caps covering the sender, counters locked until the caller's commit. */
  async today(em: EntityManager, projectId: string, fromAddress: string): Promise<WarmupRoom> {
    return this.room(em, projectId, fromAddress, 0);
  }

  /** When campaign mail from the sender may go again if today's cap is reached (the next UTC day), else null. */
  async heldUntil(em: EntityManager, projectId: string, fromAddress: string): Promise<Date | null> {
    const rows: Array<{ until: Date }> = await em.query(HELD_UNTIL_SQL, [projectId, fromAddress]);
    return rows.length ? new Date(rows[0].until) : null;
  }

  /** Adds `count` written emails to the counters of `room`'s day. */
  async add(em: EntityManager, room: WarmupRoom, count: number): Promise<void> {
    if (room.domainIds.length === 0 || count === 0) return;
    await em.query(ADD_SQL, [room.domainIds, room.offset, count]);
  }

  /**
   * Books `count` emails from the sender on the first days with room (today first) and returns,
   * in order, each one's not-before time: null for today, else the UTC midnight of its day.
   */
  async book(em: EntityManager, projectId: string, fromAddress: string, count: number): Promise<Array<Date | null>> {
    const out: Array<Date | null> = [];
    for (let offset = 0; out.length < count; offset++) {
      const room = await this.room(em, projectId, fromAddress, Math.min(offset, MAX_BOOKING_DAYS));
      const take = offset >= MAX_BOOKING_DAYS ? count - out.length : Math.min(room.room, count - out.length);
      await this.add(em, room, take);
      for (let i = 0; i < take; i++) out.push(offset === 0 ? null : room.startsAt);
    }
    return out;
  }

  private async room(em: EntityManager, projectId: string, fromAddress: string, offset: number): Promise<WarmupRoom> {
    const rows: Array<{ id: string; room: number; starts_at: Date }> = await em.query(LOCK_ROOM_SQL, [projectId, fromAddress, offset]);
    if (rows.length === 0) return { domainIds: [], offset, room: Infinity, startsAt: new Date() };
    return { domainIds: rows.map((r) => r.id), offset, room: Math.min(...rows.map((r) => Number(r.room))), startsAt: new Date(rows[0].starts_at) };
  }
}
