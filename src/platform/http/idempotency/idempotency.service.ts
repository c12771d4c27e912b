import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../logging/logger';

export interface HeldKey {
  method: string;
  path: string;
  statusCode: number | null;
  createdAt: Date;
}

/** Idempotency keys live in PostgreSQL so every process sees the same claims. */
@Injectable()
export class IdempotencyService {
  private readonly log = logger('idempotency');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * Claims the key atomically. An expired row is taken over in the same statement, so an
   * expired key is reusable even before the purge runs. Returns null when the claim succeeded,
   * otherwise the live row that holds the key.
   */
  async claim(projectId: string, key: string, method: string, path: string): Promise<{ held: HeldKey | null } | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed: unknown[] = await this.db.query(
        `INSERT INTO idempotency_keys (project_id, key, method, path, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5))
         ON CONFLICT (project_id, key) DO UPDATE
           SET method = EXCLUDED.method, path = EXCLUDED.path, status_code = NULL,
               created_at = now(), expires_at = EXCLUDED.expires_at
           WHERE idempotency_keys.expires_at <= now()
         RETURNING 1`,
        [projectId, key, method, path, this.config.idempotencyTtlHours],
      );
      if (claimed.length > 0) return null;
      const rows: Array<{ method: string; path: string; status_code: number | null; created_at: Date }> = await this.db.query(
        `SELECT method, path, status_code, created_at FROM idempotency_keys WHERE project_id = $1 AND key = $2 AND expires_at > now()`,
        [projectId, key],
      );
      // The holder may have released the key (4xx) between the two statements: try again.
      if (rows.length > 0) {
        const row = rows[0];
        return { held: { method: row.method, path: row.path, statusCode: row.status_code, createdAt: new Date(row.created_at) } };
      }
    }
    return { held: null };
  }

  async complete(projectId: string, key: string, statusCode: number): Promise<void> {
    await this.db.query(`UPDATE idempotency_keys SET status_code = $3 WHERE project_id = $1 AND key = $2`, [projectId, key, statusCode]);
  }

  async release(projectId: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE project_id = $1 AND key = $2`, [projectId, key]);
  }

  @Cron(CronExpression.EVERY_10_MINUTES, { name: 'idempotency-purge' })
  async purgeExpired(): Promise<number> {
    try {
      const [, count]: [unknown[], number] = await this.db.query(`DELETE FROM idempotency_keys WHERE expires_at <= now()`);
      return count;
    } catch (err) {
      this.log.warn({ err }, 'purging expired idempotency keys failed');
      return 0;
    }
  }
}
