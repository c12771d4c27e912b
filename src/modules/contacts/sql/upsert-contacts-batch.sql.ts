import { insertEventsSql } from '../../events';
import type { FieldType } from '../data/field-types';
import { erasedAddressSql } from '../contacts.sql';
import { ASKS_EXISTING, FLIP_EVENT_NAME, type UpsertStatementInput } from './upsert-contact.sql';

/**
 * The contact upsert of `upsert-contact.sql.ts` for many calls in one statement (adaptive
 * batching of `/v1/track` and other upserts made without a caller's transaction). Per item it
 * does exactly what the single statement does (an erased address starts unsubscribed): lock the existing row, upsert (no write when
 * nothing changes), a subscription event on a flip, the tracked event if any, first-seen field
 * types; each item gets the row the single statement would return (plus its index `i`).
 *
 * Preconditions (kept by the batcher): no two items share (projectId, email) — ON CONFLICT DO
 * UPDATE cannot touch a row twice and a later call must see an earlier one's effect.
 * Rows are locked and inserted in (project_id, email) order, field types in (project_id, key)
 * order, so concurrent batches of several processes do not deadlock on each other.
 *
 * One fixed statement text whatever the batch size (prepared once): the items and the field
 * types travel as two JSON strings, which is also all that embedded mode's literal EXECUTE takes.
 *
 * An item gets no row when a concurrent insert of its email committed after the statement's
 * snapshot and nothing changed (like the single statement); the caller runs that item again.
 */
export const UPSERT_CONTACTS_BATCH_SQL = `WITH input AS MATERIALIZED (
  SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS x(i int, p uuid, e text, s boolean, d boolean, sv jsonb, un text[], df jsonb, fd jsonb, en text, ed jsonb, cw text)
), old AS (
  -- One index probe per item (lateral: never a scan of the table), locked in (project_id, email) order.
  SELECT c.* FROM (SELECT p, e FROM input ORDER BY p, e) x
  CROSS JOIN LATERAL (
    SELECT id, project_id, email, subscribed, data, topics, snoozed_until, confirmation, confirmed_at, created_at, updated_at FROM contacts
    WHERE project_id = x.p AND email = x.e FOR UPDATE
  ) c
), up AS (
  INSERT INTO contacts AS c (project_id, email, subscribed, data, confirmation_requested_at)
  SELECT x.p, x.e, COALESCE(x.s, x.d) AND NOT ${erasedAddressSql('x.p', 'x.e')}, x.df || x.sv, CASE WHEN x.cw IS NOT NULL THEN now() END FROM input x
  -- Forces "old" to run (and lock) before this insert, as in the single statement.
  WHERE (SELECT count(*) FROM old) >= 0
  ORDER BY x.p, x.e
  ON CONFLICT (project_id, email) DO UPDATE
    SET (subscribed, data, confirmation_requested_at, updated_at) = (
          SELECT COALESCE(x.s, c.subscribed), x.df || (c.data - x.un) || x.sv,
                 CASE WHEN ${ASKS_EXISTING('x.cw', 'x.s')} THEN now() ELSE c.confirmation_requested_at END, now()
          FROM input x WHERE x.p = excluded.project_id AND x.e = excluded.email)
    WHERE EXISTS (
          SELECT 1 FROM input x WHERE x.p = excluded.project_id AND x.e = excluded.email
            AND (c.subscribed IS DISTINCT FROM COALESCE(x.s, c.subscribed)
                 OR c.data IS DISTINCT FROM (x.df || (c.data - x.un) || x.sv)
                 OR ${ASKS_EXISTING('x.cw', 'x.s')}))
  RETURNING c.id, c.project_id, c.email, c.subscribed, c.data, c.topics, c.snoozed_until, c.confirmation, c.confirmed_at, c.created_at, c.updated_at, (c.xmax = 0) AS inserted
), cur AS (
  SELECT id, project_id, email, subscribed, data, topics, snoozed_until, confirmation, confirmed_at, created_at, updated_at, inserted, true AS changed FROM up
  UNION ALL
  SELECT id, project_id, email, subscribed, data, topics, snoozed_until, confirmation, confirmed_at, created_at, updated_at, false, false FROM old
  WHERE NOT EXISTS (SELECT 1 FROM up WHERE up.id = old.id)
), flip AS (${insertEventsSql(
  { projectId: 'up.project_id', contactId: 'up.id', name: FLIP_EVENT_NAME, data: 'x.fd' },
  `FROM up JOIN old ON old.id = up.id JOIN input x ON x.p = up.project_id AND x.e = up.email
  WHERE old.subscribed <> up.subscribed`,
)}), ev AS (${insertEventsSql(
  { projectId: 'cur.project_id', contactId: 'cur.id', name: 'x.en', data: 'x.ed' },
  `FROM cur JOIN input x ON x.p = cur.project_id AND x.e = cur.email
  WHERE x.en IS NOT NULL`,
)}), ft AS (
  INSERT INTO contact_fields (project_id, key, type)
  SELECT f.p, f.k, f.t FROM jsonb_to_recordset($2::jsonb) AS f(p uuid, k text, t text)
  ORDER BY f.p, f.k
  ON CONFLICT (project_id, key) DO NOTHING
)
SELECT x.i, cur.id, cur.project_id, cur.email, cur.subscribed, cur.data, cur.topics, cur.snoozed_until, cur.confirmation, cur.confirmed_at, cur.created_at, cur.updated_at,
       cur.inserted, cur.changed,
       (SELECT coalesce(json_agg(flip), '[]'::json) FROM flip WHERE flip.contact_id = cur.id) AS flips,
       (SELECT row_to_json(ev) FROM ev WHERE ev.contact_id = cur.id) AS event
FROM cur JOIN input x ON x.p = cur.project_id AND x.e = cur.email`;

/** Identity of the contact an item writes: items with the same key never share a batch. */
export const upsertKey = (input: Pick<UpsertStatementInput, 'projectId' | 'email'>): string => `${input.projectId}/${input.email}`;

/** The batch statement's two parameters (JSON strings). Field types: the first item in call order wins per project+key. */
export function buildUpsertBatchParams(items: UpsertStatementInput[]): [string, string] {
  const fieldTypes = new Map<string, { p: string; k: string; t: FieldType }>();
  const rows = items.map((item, i) => {
    for (const [key, type] of item.fieldTypes) {
      const id = `${item.projectId}/${key}`;
      if (!fieldTypes.has(id)) fieldTypes.set(id, { p: item.projectId, k: key, t: type });
    }
    return {
      i,
      p: item.projectId,
      e: item.email,
      s: item.subscribed,
      d: item.defaultSubscribed,
      sv: item.set,
      un: item.unset,
      df: item.defaults ?? {},
      fd: item.flipData,
      en: item.event ? item.event.name : null,
      ed: item.event ? item.event.data : null,
      cw: item.confirm ?? null,
    };
  });
  return [JSON.stringify(rows), JSON.stringify([...fieldTypes.values()])];
}

/** The batch's rows by item index (`undefined`: run that item again alone), without the index column. */
export function rowsByItem<R extends object>(rows: Array<R & { i: number }>, count: number): Array<R | undefined> {
  const out = new Array<R | undefined>(count).fill(undefined);
  for (const { i, ...row } of rows) out[i] = row as unknown as R;
  return out;
}
