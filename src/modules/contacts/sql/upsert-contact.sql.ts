import { insertEventsSql } from '../../events';
import type { FieldType } from '../data/field-types';
import type { TopicRule } from '../../topics';
import type { ConfirmWhen } from '../consent/double-opt-in';
import { erasedAddressSql } from '../contacts.sql';

/** The subscription event a flip stores (`up`: the upserted row). */
export const FLIP_EVENT_NAME = "CASE WHEN up.subscribed THEN 'contact.subscribed' ELSE 'contact.unsubscribed' END";

export interface UpsertStatementInput {
  projectId: string;
  email: string;
  subscribed: boolean | null;
  defaultSubscribed: boolean;
  set: Record<string, unknown>;
  unset: string[];
  /** Keys written only where the contact has none (a send's `to.name` as `data.name`); `set` wins over them. */
  defaults?: Record<string, unknown>;
  flipData: Record<string, unknown>;
  event?: { name: string; data: Record<string, unknown> };
  fieldTypes: Array<[string, FieldType]>;
  /**
   * Double opt-in (`DoubleOptInService.optIn`): the statement stamps `confirmation_requested_at` on a
   * contact it leaves unsubscribed that must confirm (`new`: only one it creates), so the decision
   * commits with the contact and a crash before the email leaves it for the repair pass.
   */
  confirm?: ConfirmWhen | null;
  /**
   * Topic choices to set and to remove (slugs checked by the caller), with the rules of every slug
   * they name: a change of effective membership stores `contact.topic.subscribed|unsubscribed`.
   * Only the single statement writes topics (the batch statement leaves them as they are).
   */
  topics?: { set: Record<string, boolean>; unset: string[]; rules: TopicRule[] };
}

/**
 * Double opt-in on the update branch (`c`: the existing row): an existing contact is asked to
 * confirm only under `always` and when the upsert leaves it unsubscribed (SQL; `confirm` and
 * `subscribed` are the call's values).
 */
export const ASKS_EXISTING = (confirm: string, subscribed: string) => `(${confirm} = 'always' AND NOT COALESCE(${subscribed}, c.subscribed))`;

/** A contact's effective membership of topic `r` (`{slug, default}`) given its choices `topics` (SQL; rule of topics.sql.ts). */
const memberOf = (topics: string) => `coalesce((${topics} ->> r.slug)::boolean, r.d = 'opt_out')`;

/**
 * One statement, one round trip: lock the existing row, upsert the contact (skipping the write
 * when nothing changes; a contact created with an erased address starts unsubscribed), store a subscription event on a flip, optionally store a tracked event,
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
    JSON.stringify((input.topics?.rules ?? []).map((r) => ({ slug: r.slug, d: r.default }))),
    JSON.stringify(input.topics?.set ?? {}),
    input.topics?.unset ?? [],
    input.confirm ?? null,
    JSON.stringify(input.defaults ?? {}),
  ];
  const ctes = [
    `old AS (
      SELECT id, email, subscribed, data, topics, snoozed_until, confirmation, confirmed_at, created_at, updated_at FROM contacts
      WHERE project_id = $1 AND email = $2 FOR UPDATE
    )`,
    `up AS (
      INSERT INTO contacts AS c (project_id, email, subscribed, data, topics, confirmation_requested_at)
      SELECT $1, $2, COALESCE($3::boolean, $4::boolean) AND NOT ${erasedAddressSql('$1', '$2')}, $12::jsonb || $5::jsonb, $9::jsonb, CASE WHEN $11::text IS NOT NULL THEN now() END
      -- Forces "old" to run (and lock) before this insert: evaluated after it, FOR UPDATE
      -- would skip the row this statement itself just updated.
      WHERE (SELECT count(*) FROM old) >= 0
      ON CONFLICT (project_id, email) DO UPDATE
        SET subscribed = COALESCE($3::boolean, c.subscribed),
            data = $12::jsonb || (c.data - $6::text[]) || $5::jsonb,
            topics = (c.topics - $10::text[]) || $9::jsonb,
            confirmation_requested_at = CASE WHEN ${ASKS_EXISTING('$11::text', '$3::boolean')} THEN now() ELSE c.confirmation_requested_at END,
            updated_at = now()
        WHERE c.subscribed IS DISTINCT FROM COALESCE($3::boolean, c.subscribed)
           OR c.data IS DISTINCT FROM ($12::jsonb || (c.data - $6::text[]) || $5::jsonb)
           OR c.topics IS DISTINCT FROM ((c.topics - $10::text[]) || $9::jsonb)
           OR ${ASKS_EXISTING('$11::text', '$3::boolean')}
      RETURNING c.id, c.email, c.subscribed, c.data, c.topics, c.snoozed_until, c.confirmation, c.confirmed_at, c.created_at, c.updated_at, (c.xmax = 0) AS inserted
    )`,
    `cur AS (
      SELECT id, email, subscribed, data, topics, snoozed_until, confirmation, confirmed_at, created_at, updated_at, inserted, true AS changed FROM up
      UNION ALL
      SELECT id, email, subscribed, data, topics, snoozed_until, confirmation, confirmed_at, created_at, updated_at, false, false FROM old WHERE NOT EXISTS (SELECT 1 FROM up)
    )`,
    `flip AS (${insertEventsSql(
      { projectId: '$1', contactId: 'up.id', name: FLIP_EVENT_NAME, data: '$7::jsonb' },
      'FROM up JOIN old ON old.id = up.id WHERE old.subscribed <> up.subscribed',
    )})`,
    // A new contact was a member of nothing before; only the topics this call names can change.
    `tflip AS (${insertEventsSql(
      {
        projectId: '$1',
        contactId: 'up.id',
        name: `CASE WHEN ${memberOf('up.topics')} THEN 'contact.topic.subscribed' ELSE 'contact.topic.unsubscribed' END`,
        data: `$7::jsonb || jsonb_build_object('topic', r.slug)`,
      },
      `FROM up LEFT JOIN old ON old.id = up.id CROSS JOIN jsonb_to_recordset($8::jsonb) AS r(slug text, d text)
       WHERE (old.id IS NOT NULL AND ${memberOf('old.topics')}) <> ${memberOf('up.topics')}`,
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
    SELECT cur.id, $1::uuid AS project_id, cur.email, cur.subscribed, cur.data, cur.topics, cur.snoozed_until, cur.confirmation, cur.confirmed_at, cur.created_at, cur.updated_at,
           cur.inserted, cur.changed,
           (SELECT coalesce(jsonb_agg(flip), '[]'::jsonb) FROM flip) || (SELECT coalesce(jsonb_agg(tflip), '[]'::jsonb) FROM tflip) AS flips,
           ${eventSelect} AS event
    FROM cur`;
  return { sql, params };
}
