import { insertEventsSql } from '../../events/events-insert.sql';
import type { FieldType } from '../data/field-types';

/** The subscription event a flip stores (`up`: the upserted row). */
export const FLIP_EVENT_NAME = "CASE WHEN up.subscribed THEN 'contact.subscribed' ELSE 'contact.unsubscribed' END";

export interface UpsertStatementInput {
  projectId: string;
  email: string;
  subscribed: boolean | null;
  defaultSubscribed: boolean;
  set: Record<string, unknown>;
  unset: string[];
  flipData: Record<string, unknown>;
  event?: { name: string; data: Record<string, unknown> };
  fieldTypes: Array<[string, FieldType]>;
}

/**
 * One statement, one round trip: lock the existing row, upsert the contact (skipping the write
 * when nothing changes), store a subscription event on a flip, optionally store a tracked event,
 * and register first-seen field types. Being a single statement it is atomic on its own and
 * inside a caller's transaction alike.
 *
 * Returns no row when a concurrent insert of the same email committed after this statement's
 * snapshot and nothing changed; the caller runs it again (the row is then visible).
 */
export function buildUpsertStatement(input: UpsertStatementInput): { sql: string; params: unknown[] } {
  const params: unknown[] = [
    input.projectId,
    input.email,
    input.subscribed,
    input.defaultSubscribed,
    JSON.stringify(input.set),
    input.unset,
    JSON.stringify(input.flipData),
  ];
  const ctes = [
    `old AS (
      SELECT id, email, subscribed, data, confirmation, confirmed_at, created_at, updated_at FROM contacts
      WHERE project_id = $1 AND email = $2 FOR UPDATE
    )`,
    `up AS (
      INSERT INTO contacts AS c (project_id, email, subscribed, data)
      SELECT $1, $2, COALESCE($3::boolean, $4::boolean), $5::jsonb
      -- Forces "old" to run (and lock) before this insert: evaluated after it, FOR UPDATE
      -- would skip the row this statement itself just updated.
      WHERE (SELECT count(*) FROM old) >= 0
      ON CONFLICT (project_id, email) DO UPDATE
        SET subscribed = COALESCE($3::boolean, c.subscribed),
            data = (c.data - $6::text[]) || $5::jsonb,
            updated_at = now()
        WHERE c.subscribed IS DISTINCT FROM COALESCE($3::boolean, c.subscribed)
           OR c.data IS DISTINCT FROM ((c.data - $6::text[]) || $5::jsonb)
      RETURNING c.id, c.email, c.subscribed, c.data, c.confirmation, c.confirmed_at, c.created_at, c.updated_at, (c.xmax = 0) AS inserted
    )`,
    `cur AS (
      SELECT id, email, subscribed, data, confirmation, confirmed_at, created_at, updated_at, inserted, true AS changed FROM up
      UNION ALL
      SELECT id, email, subscribed, data, confirmation, confirmed_at, created_at, updated_at, false, false FROM old WHERE NOT EXISTS (SELECT 1 FROM up)
    )`,
    `flip AS (${insertEventsSql(
      { projectId: '$1', contactId: 'up.id', name: FLIP_EVENT_NAME, data: '$7::jsonb' },
      'FROM up JOIN old ON old.id = up.id WHERE old.subscribed <> up.subscribed',
    )})`,
  ];
  let eventSelect = 'NULL::json';
  if (input.event) {
    params.push(input.event.name, JSON.stringify(input.event.data));
    const n = params.length;
    ctes.push(`ev AS (${insertEventsSql({ projectId: '$1', contactId: 'cur.id', name: `$${n - 1}`, data: `$${n}::jsonb` }, 'FROM cur')})`);
    eventSelect = '(SELECT row_to_json(ev) FROM ev)';
  }
  if (input.fieldTypes.length > 0) {
    params.push(
      input.fieldTypes.map(([key]) => key),
      input.fieldTypes.map(([, type]) => type),
    );
    const n = params.length;
    ctes.push(`ft AS (
      INSERT INTO contact_fields (project_id, key, type)
      SELECT $1, k, t FROM unnest($${n - 1}::text[], $${n}::text[]) AS x(k, t)
      ON CONFLICT (project_id, key) DO NOTHING
    )`);
  }
  const sql = `WITH ${ctes.join(',\n')}
    SELECT cur.id, $1::uuid AS project_id, cur.email, cur.subscribed, cur.data, cur.confirmation, cur.confirmed_at, cur.created_at, cur.updated_at,
           cur.inserted, cur.changed,
           (SELECT coalesce(json_agg(flip), '[]'::json) FROM flip) AS flips,
           ${eventSelect} AS event
    FROM cur`;
  return { sql, params };
}
