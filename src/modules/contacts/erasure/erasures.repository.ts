import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { addressHashSql } from '../contacts.sql';
import type { ErasureStep } from './erasure-steps';
import type { ErasureRequester, ErasureRow } from './erasures.rows';

const COLUMNS = `id, contact_id, status, step, requested_by_type, requested_by_id, failure_reason, requested_at, completed_at, requested_at::text AS requested_key`;

/**
 * `contact_erasures` (the jobs), `erasure_salts` and `erased_addresses` (the hashed suppression).
 * No statement here reads or returns an address: the hash is made in SQL from the contact's row.
 */
@Injectable()
export class ErasuresRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A new queued erasure of the contact, or the unfinished one it already has (`created` false);
   * null when the project has no such contact. One statement: the unique index on unfinished
   * erasures settles two requests racing.
   */
  async createOrFind(projectId: string, contactId: string, by: ErasureRequester): Promise<{ row: ErasureRow; created: boolean } | null> {
    const rows: Array<ErasureRow & { created: boolean }> = await this.dataSource.query(
      `WITH ins AS (
         INSERT INTO contact_erasures (project_id, contact_id, requested_by_type, requested_by_id)
         SELECT $1, c.id, $3, $4 FROM contacts c WHERE c.project_id = $1 AND c.id = $2
         ON CONFLICT (project_id, contact_id) WHERE status IN ('queued', 'running') DO NOTHING
         RETURNING ${COLUMNS}
       )
       SELECT *, true AS created FROM ins
       UNION ALL
       SELECT ${COLUMNS}, false FROM contact_erasures
        WHERE project_id = $1 AND contact_id = $2 AND status IN ('queued', 'running') AND NOT EXISTS (SELECT 1 FROM ins)`,
      [projectId, contactId, by.type, by.id],
    );
    const row = rows[0];
    if (!row) return null;
    const { created, ...erasure } = row;
    return { row: erasure, created };
  }

  /** Takes back an erasure that could not be queued. */
  async remove(projectId: string, id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM contact_erasures WHERE id = $1 AND project_id = $2 AND status = 'queued'`, [id, projectId]);
  }

  async find(projectId: string, id: string): Promise<ErasureRow | null> {
    const rows: ErasureRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM contact_erasures WHERE id = $1 AND project_id = $2`, [id, projectId]);
    return rows[0] ?? null;
  }

  /** A page newest first (`requested_at DESC, id`), after the cursor's row; `limit + 1` rows. With `withTotal`, the count of all. */
  async page(projectId: string, after: { v: string; id: string } | null, limit: number, withTotal: boolean): Promise<{ rows: ErasureRow[]; total: number }> {
    const params: unknown[] = [projectId, limit + 1];
    const keyset = after ? `AND (requested_at < $3::timestamptz OR (requested_at = $3::timestamptz AND id > $4::uuid))` : '';
    if (after) params.push(after.v, after.id);
    const rows: ErasureRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM contact_erasures WHERE project_id = $1 ${keyset} ORDER BY requested_at DESC, id LIMIT $2`,
      params,
    );
    const total = withTotal ? ((await this.dataSource.query(`SELECT count(*)::int AS n FROM contact_erasures WHERE project_id = $1`, [projectId])) as Array<{ n: number }>)[0].n : 0;
    return { rows, total };
  }

  /** Moves a queued or running erasure to `running`; its contact and the step it reached, or null when it is finished or absent. */
  async start(projectId: string, id: string): Promise<{ contact_id: string; step: ErasureStep | null } | null> {
    const rows: Array<{ contact_id: string; step: ErasureStep | null }> = await this.dataSource.query(
      // Wrapped in a SELECT: TypeORM returns [rows, count] for a bare UPDATE … RETURNING.
      `WITH started AS (
         UPDATE contact_erasures SET status = 'running' WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'running') RETURNING contact_id, step
       ) SELECT * FROM started`,
      [id, projectId],
    );
    return rows[0] ?? null;
  }

  /**
   * Records that the running erasure reached `step` (from `previous`), in the caller's transaction
   * when given; false when another runner already moved it (this one stops). `complete` also ends it.
   */
  async reach(projectId: string, id: string, previous: ErasureStep | null, step: ErasureStep, complete: boolean, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      `WITH moved AS (
         UPDATE contact_erasures SET step = $4, status = CASE WHEN $5::boolean THEN 'completed' ELSE status END, completed_at = CASE WHEN $5::boolean THEN now() END
          WHERE id = $1 AND project_id = $2 AND status = 'running' AND step IS NOT DISTINCT FROM $3::text
          RETURNING id
       ) SELECT id FROM moved`,
      [id, projectId, previous, step, complete],
    );
    return rows.length > 0;
  }

  /** Locks the running erasure's row for the caller's transaction; the step it reached, or undefined when it is not running. */
  async lockStep(projectId: string, id: string, manager: EntityManager): Promise<ErasureStep | null | undefined> {
    const rows: Array<{ step: ErasureStep | null }> = await manager.query(
      `SELECT step FROM contact_erasures WHERE id = $1 AND project_id = $2 AND status = 'running' FOR UPDATE`,
      [id, projectId],
    );
    return rows.length ? rows[0].step : undefined;
  }

  async fail(projectId: string, id: string, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE contact_erasures SET status = 'failed', failure_reason = $3, completed_at = now() WHERE id = $1 AND project_id = $2 AND status IN ('queued', 'running')`,
      [id, projectId, reason],
    );
  }

  /**
   * Puts the contact's address on the project's erased list as its salted hash, making the
   * project's salt at its first erasure (random: two v4 UUIDs' bytes). Idempotent; nothing when
   * the contact is gone.
   */
  async writeErasedAddress(projectId: string, contactId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `WITH made AS (
         INSERT INTO erasure_salts (project_id, salt) VALUES ($1, uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))
         ON CONFLICT (project_id) DO NOTHING RETURNING salt
       ), salt AS (
         SELECT salt FROM made UNION ALL SELECT salt FROM erasure_salts WHERE project_id = $1
       )
       INSERT INTO erased_addresses (project_id, address_hash)
       SELECT $1, ${addressHashSql('s.salt', 'c.email')} FROM contacts c, (SELECT salt FROM salt LIMIT 1) s
        WHERE c.project_id = $1 AND c.id = $2
       ON CONFLICT (project_id, address_hash) DO NOTHING`,
      [projectId, contactId],
    );
  }

  /** Takes the address off the project's erased list (its contact subscribed explicitly); in the caller's transaction when given. */
  async liftErasedAddress(projectId: string, normalizedEmail: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `DELETE FROM erased_addresses ea USING erasure_salts es
        WHERE es.project_id = $1 AND ea.project_id = $1 AND ea.address_hash = ${addressHashSql('es.salt', '$2::text')}`,
      [projectId, normalizedEmail],
    );
  }
}
