import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { logger } from '../../logging/logger';
import { CounterHit, CounterStore } from './counter-store';

interface CounterRow {
  count: number;
  reset_ms: string | number;
}

/** Counters in `rate_counters`: one upsert per hit, an expired window restarts in the same statement. */
@Injectable()
export class PostgresCounterStore extends CounterStore {
  private readonly log = logger('rate-limit');

  constructor(private readonly db: DataSource) {
    super();
  }

  async hit(key: string, windowMs: number): Promise<CounterHit> {
    const rows: CounterRow[] = await this.db.query(
      `INSERT INTO rate_counters AS c (key, count, expires_at)
       VALUES ($1, 1, now() + $2::bigint * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN c.expires_at <= now() THEN 1 ELSE c.count + 1 END,
         expires_at = CASE WHEN c.expires_at <= now() THEN EXCLUDED.expires_at ELSE c.expires_at END
       RETURNING c.count, ceil(extract(epoch FROM c.expires_at - now()) * 1000) AS reset_ms`,
      [key, windowMs],
    );
    return { count: rows[0].count, resetMs: Math.max(0, Number(rows[0].reset_ms)) };
  }

  async peek(key: string): Promise<CounterHit | null> {
    const rows: CounterRow[] = await this.db.query(
      `SELECT count, ceil(extract(epoch FROM expires_at - now()) * 1000) AS reset_ms FROM rate_counters WHERE key = $1 AND expires_at > now()`,
      [key],
    );
    return rows.length ? { count: rows[0].count, resetMs: Math.max(0, Number(rows[0].reset_ms)) } : null;
  }

  async clear(key: string): Promise<void> {
    await this.db.query(`DELETE FROM rate_counters WHERE key = $1`, [key]);
  }

  async release(key: string): Promise<void> {
    await this.db.query(`UPDATE rate_counters SET count = greatest(count - 1, 0) WHERE key = $1 AND expires_at > now()`, [key]);
  }

  /** Deletes every expired counter (the purge round, `worker/rate-counters-purge.ts`). */
  async purgeExpired(): Promise<void> {
    try {
      await this.db.query(`DELETE FROM rate_counters WHERE expires_at <= now()`);
    } catch (err) {
      this.log.warn({ err }, 'purging expired rate counters failed');
    }
  }
}
