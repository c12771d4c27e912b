import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { IdempotencyClaim } from './idempotency-claim';

export interface HeldRow {
  method: string;
  path: string;
  status_code: number | null;
  response: unknown;
  created_at: Date;
}

/** The idempotency_keys table: a project's claimed keys and the answers recorded with them. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The live (unexpired, committed) claim of a key, if any. */
  async findLive(projectId: string, key: string): Promise<HeldRow | null> {
    const rows: HeldRow[] = await this.dataSource.query(
      `SELECT method, path, status_code, response, created_at FROM idempotency_keys WHERE project_id = $1 AND key = $2 AND expires_at > now()`,
      [projectId, key],
    );
    return rows[0] ?? null;
  }

  /**
   * Claims the keys (each naming its project: one call may claim for several) in the caller's
   * transaction, one statement, taking over expired claims; the claims taken, as `project\nkey`.
   */
  async claimAcrossProjects(claims: IdempotencyClaim[], ttlHours: number, manager: EntityManager): Promise<Set<string>> {
    const rows: Array<{ project_id: string; key: string }> = await manager.query(
      `INSERT INTO idempotency_keys (project_id, key, method, path, expires_at)
       SELECT c.project_id, c.key, c.method, c.path, now() + make_interval(hours => $2)
         FROM jsonb_to_recordset($1::jsonb) AS c(project_id uuid, key text, method text, path text)
        ORDER BY c.project_id, c.key
       ON CONFLICT (project_id, key) DO UPDATE
         SET method = EXCLUDED.method, path = EXCLUDED.path, status_code = NULL, response = NULL,
             created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= now()
       RETURNING project_id, key`,
      [JSON.stringify(claims.map((c) => ({ project_id: c.projectId, key: c.key, method: c.method, path: c.path }))), ttlHours],
    );
    return new Set(rows.map((r) => `${r.project_id}\n${r.key}`));
  }

  /** Stores the answers of claimed keys, in the transaction that claimed them: one statement for them all. */
  async recordAnswers(answers: Array<{ projectId: string; key: string; statusCode: number; response: unknown }>, manager: EntityManager): Promise<void> {
    if (answers.length === 0) return;
    await manager.query(
      `UPDATE idempotency_keys k SET status_code = a.status_code, response = a.response
         FROM jsonb_to_recordset($1::jsonb) AS a(project_id uuid, key text, status_code int, response jsonb)
        WHERE k.project_id = a.project_id AND k.key = a.key`,
      [JSON.stringify(answers.map((a) => ({ project_id: a.projectId, key: a.key, status_code: a.statusCode, response: a.response ?? null })))],
    );
  }

  /** A key and its answer at once, unless the key is held already. */
  async insertAnswered(projectId: string, claim: Pick<IdempotencyClaim, 'key' | 'method' | 'path'>, statusCode: number, response: unknown, ttlHours: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO idempotency_keys (project_id, key, method, path, status_code, response, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, now() + make_interval(hours => $7))
       ON CONFLICT (project_id, key) DO NOTHING`,
      [projectId, claim.key, claim.method, claim.path, statusCode, JSON.stringify(response ?? null), ttlHours],
    );
  }

  /** Deletes every project's expired keys; how many went. */
  async purgeExpiredAcrossProjects(): Promise<number> {
    const [, count]: [unknown[], number] = await this.dataSource.query(`DELETE FROM idempotency_keys WHERE expires_at <= now()`);
    return count;
  }
}
