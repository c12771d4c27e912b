import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../logging/logger';
import type { IdempotencyClaim } from './idempotency-claim';

export interface HeldKey {
  method: string;
  path: string;
  statusCode: number | null;
  /** The first request's answer (its body), stored with the claim. */
  response: unknown;
  createdAt: Date;
}

interface HeldRow {
  method: string;
  path: string;
  status_code: number | null;
  response: unknown;
  created_at: Date;
}

const held = (row: HeldRow): HeldKey => ({
  method: row.method,
  path: row.path,
  statusCode: row.status_code,
  response: row.response ?? null,
  createdAt: new Date(row.created_at),
});

/**
 * Idempotency keys live in PostgreSQL so every process sees the same claims. A key is claimed
 * inside the transaction that writes the request's rows (`claimIn`, then `recordIn` with the
 * answer): a request that fails or dies before its commit leaves no claim, and a claim that
 * exists means the request's effect exists (docs/api.md, "Idempotency").
 */
@Injectable()
export class IdempotencyService {
  private readonly log = logger('idempotency');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The live (unexpired, committed) claim of a key, if any. */
  async find(projectId: string, key: string): Promise<HeldKey | null> {
    const rows: HeldRow[] = await this.db.query(
      `SELECT method, path, status_code, response, created_at FROM idempotency_keys WHERE project_id = $1 AND key = $2 AND expires_at > now()`,
      [projectId, key],
    );
    return rows.length ? held(rows[0]) : null;
  }

  /**
   * Claims the keys in the caller's transaction, one statement; the claims of one call must name
   * distinct keys. A key held by a transaction still running makes this wait for its end: taken
   * if it rolled back, refused if it committed. An expired claim is taken over. Returns per claim
   * whether it was taken.
   */
  async claimIn(em: EntityManager, claims: IdempotencyClaim[]): Promise<boolean[]> {
    if (claims.length === 0) return [];
    const rows: Array<{ project_id: string; key: string }> = await em.query(
      `INSERT INTO idempotency_keys (project_id, key, method, path, expires_at)
       SELECT c.project_id, c.key, c.method, c.path, now() + make_interval(hours => $2)
         FROM jsonb_to_recordset($1::jsonb) AS c(project_id uuid, key text, method text, path text)
        ORDER BY c.project_id, c.key
       ON CONFLICT (project_id, key) DO UPDATE
         SET method = EXCLUDED.method, path = EXCLUDED.path, status_code = NULL, response = NULL,
             created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= now()
       RETURNING project_id, key`,
      [JSON.stringify(claims.map((c) => ({ project_id: c.projectId, key: c.key, method: c.method, path: c.path }))), this.config.idempotencyTtlHours],
    );
    const taken = new Set(rows.map((r) => `${r.project_id}\n${r.key}`));
    return claims.map((c) => taken.has(`${c.projectId}\n${c.key}`));
  }

  /** Stores the answer of a claimed request, in the transaction that claimed it. */
  async recordIn(em: EntityManager, claim: IdempotencyClaim, statusCode: number, response: unknown): Promise<void> {
    await em.query(`UPDATE idempotency_keys SET status_code = $3, response = $4::jsonb WHERE project_id = $1 AND key = $2`, [
      claim.projectId,
      claim.key,
      statusCode,
      JSON.stringify(response ?? null),
    ]);
    claim.recorded = true;
  }

  /**
   * For an `@Idempotent()` handler that wrote without claiming (no transaction of its own): the
   * key is recorded after the effect, so a crash in between lets a retry repeat it, never lose it.
   */
  async recordAfter(claim: IdempotencyClaim, statusCode: number, response: unknown): Promise<void> {
    await this.db.query(
      `INSERT INTO idempotency_keys (project_id, key, method, path, status_code, response, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, now() + make_interval(hours => $7))
       ON CONFLICT (project_id, key) DO NOTHING`,
      [claim.projectId, claim.key, claim.method, claim.path, statusCode, JSON.stringify(response ?? null), this.config.idempotencyTtlHours],
    );
    claim.recorded = true;
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
