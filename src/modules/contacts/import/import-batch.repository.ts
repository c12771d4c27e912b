import type { EntityManager } from 'typeorm';
import { compileDataPatch } from '../data/data-patch';
import type { ImportBatch } from './csv/import-rows';
import { erasedAddressSql } from '../contacts.sql';

export interface BatchWriteResult {
  inserted: number;
}

/**
 * How long a batch's statements wait for a row lock. Batches of one runner touch disjoint
 * contacts, so they never wait on each other; a wait this long means another writer holds a
 * contact (or a second runner of the same job a row of this batch) and the attempt is better
 * failed and retried than left hanging.
 */
const BATCH_LOCK_TIMEOUT = '60s';

/**
 * Writes one batch inside the caller's transaction, set-based, in two phases:
 * 1. the contacts: one multi-row upsert (an erased address starts unsubscribed). Batches of one job run this phase side by side (their
 *    contacts are disjoint: a batch that repeats an email of an earlier batch starts only after
 *    that one committed, so later cells win);
 * 2. after `predecessor` (the previous batch's commit) settles: the job row is locked and must
 *    still stand at `expectedCursor` (the previous batch's last row), then one insert of
 *    first-seen field types, one of the row errors, one update of the job's counters and resume
 *    cursor. So batches commit one after another, in file order, each exactly once.
 * Refused (null) when the job no longer stands where this runner expects it: a second runner of
 * the same job moved it on. A rejected `predecessor` rejects this write (its transaction rolls
 * back), so nothing commits past a batch that failed.
 */
export async function writeImportBatch(
  manager: EntityManager,
  job: { id: string; projectId: string; expectedCursor: number },
  batch: ImportBatch,
  predecessor: Promise<unknown> = Promise.resolve(),
): Promise<BatchWriteResult | null> {
  await manager.query(`SELECT set_config('lock_timeout', $1, true)`, [BATCH_LOCK_TIMEOUT]);
  let inserted = 0;
  if (batch.contacts.size > 0) {
    // Import rows are flat primitives, so the shared rules reduce to "set these keys"; going
    // through compileDataPatch keeps reserved keys and empty values handled in one place.
    const rows = [...batch.contacts.values()].map((c) => ({ email: c.email, data: compileDataPatch(c.data).set }));
    const result: Array<{ inserted: number }> = await manager.query(
      `WITH input AS (
         SELECT x.email, x.data FROM jsonb_to_recordset($2::jsonb) AS x(email text, data jsonb) ORDER BY x.email
       ), up AS (
         INSERT INTO contacts AS c (project_id, email, subscribed, data)
         SELECT $1, email, NOT ${erasedAddressSql('$1', 'email')}, data FROM input
         ON CONFLICT (project_id, email) DO UPDATE
           SET data = c.data || EXCLUDED.data, updated_at = now()
           WHERE NOT c.data @> EXCLUDED.data
         RETURNING (c.xmax = 0) AS inserted
       )
       SELECT count(*) FILTER (WHERE inserted)::int AS inserted FROM up`,
      [job.projectId, JSON.stringify(rows)],
    );
    inserted = result[0]?.inserted ?? 0;
  }

  await predecessor;
  const locked: Array<{ cursor_row: number }> = await manager.query(
    `SELECT cursor_row FROM import_jobs WHERE id = $1 AND project_id = $2 AND status = 'processing' FOR UPDATE`,
    [job.id, job.projectId],
  );
  if (locked.length === 0 || locked[0].cursor_row !== job.expectedCursor) return null;

  if (batch.fieldTypes.size > 0) {
    // Sorted, so two writers inserting the same new keys take them in the same order.
    const keys = [...batch.fieldTypes.keys()].sort();
    await manager.query(
      `INSERT INTO contact_fields (project_id, key, type)
       SELECT $1, k, t FROM unnest($2::text[], $3::text[]) AS x(k, t)
       ON CONFLICT (project_id, key) DO NOTHING`,
      [job.projectId, keys, keys.map((k) => batch.fieldTypes.get(k))],
    );
  }

  if (batch.errors.length > 0) {
    await manager.query(
      `INSERT INTO import_job_errors (job_id, row_number, email, reason)
       SELECT $1, r, e, reason FROM unnest($2::int[], $3::text[], $4::text[]) AS x(r, e, reason)
       ON CONFLICT (job_id, row_number) DO NOTHING`,
      [job.id, batch.errors.map((e) => e.row), batch.errors.map((e) => e.email), batch.errors.map((e) => e.reason)],
    );
  }

  await manager.query(
    `UPDATE import_jobs
        SET cursor_row = $2, processed_rows = processed_rows + $3, imported = imported + $4,
            updated = updated + $5, skipped = skipped + $6
      WHERE id = $1`,
    [job.id, batch.lastRow, batch.rows, inserted, batch.contactRows - inserted, batch.skipped],
  );
  return { inserted };
}
