import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Fragment, raw, sql } from '../../platform/database/sql-fragment';
import { StatementRunner } from '../../platform/database/statement-runner';
import { insertEventsSql } from '../events';
import type { EventRow } from '../events';
import type { JsonObject } from './data/data-patch';
import { CONTACT_COLUMNS, ContactRow } from './contacts.rows';
import { ListContactsStatements } from './sql/list-contacts.sql';

const QUALIFIED_COLUMNS = raw(CONTACT_COLUMNS.split(', ').map((column) => `c.${column}`).join(', '));

/** The `contacts` table: every statement ContactsService and the bulk runner run on it. */
@Injectable()
export class ContactsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: StatementRunner,
  ) {}

  /** A prepared upsert statement (`sql/upsert-contact.sql.ts`, `sql/upsert-contacts-batch.sql.ts`), project id among its params. */
  runUpsert<R>(statement: string, params: unknown[], manager?: EntityManager): Promise<R[]> {
    return this.statements.run<R>(statement, params, manager);
  }

  async emailsOf(projectId: string, ids: string[]): Promise<Array<{ id: string; email: string }>> {
    return this.dataSource.query(`SELECT id, email FROM contacts WHERE project_id = $1 AND id = ANY($2::text[])`, [projectId, ids]);
  }

  async findById(projectId: string, id: string, manager?: EntityManager): Promise<ContactRow | null> {
    const rows: ContactRow[] = await (manager ?? this.dataSource.manager).query(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE project_id = $1 AND id = $2`, [
      projectId,
      id,
    ]);
    return rows[0] ?? null;
  }

  /** `email` already normalized. */
  async findByEmail(projectId: string, email: string, manager?: EntityManager): Promise<ContactRow | null> {
    const rows: ContactRow[] = await (manager ?? this.dataSource.manager).query(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE project_id = $1 AND email = $2`, [
      projectId,
      email,
    ]);
    return rows[0] ?? null;
  }

  /** The contact's row locked for the caller's transaction. */
  async findForUpdate(projectId: string, id: string, manager: EntityManager): Promise<ContactRow | null> {
    const rows: ContactRow[] = await manager.query(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE project_id = $1 AND id = $2 FOR UPDATE`, [projectId, id]);
    return rows[0] ?? null;
  }

  async emailTaken(projectId: string, email: string, manager?: EntityManager): Promise<boolean> {
    const taken: unknown[] = await (manager ?? this.dataSource.manager).query(`SELECT 1 FROM contacts WHERE project_id = $1 AND email = $2`, [projectId, email]);
    return taken.length > 0;
  }

  async hasAny(projectId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM contacts WHERE project_id = $1 LIMIT 1`, [projectId]);
    return rows.length > 0;
  }

  async update(
    projectId: string,
    id: string,
    values: { email: string; subscribed: boolean; data: JsonObject; topics: Record<string, boolean>; snoozedUntil: Date | null },
    manager?: EntityManager,
  ): Promise<ContactRow> {
    // UPDATE … RETURNING comes back as [rows, affected].
    const [updated]: [ContactRow[], number] = await (manager ?? this.dataSource.manager).query(
      `UPDATE contacts SET email = $3, subscribed = $4, data = $5::jsonb, topics = $6::jsonb, snoozed_until = $7, updated_at = now()
       WHERE project_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`,
      [projectId, id, values.email, values.subscribed, JSON.stringify(values.data), JSON.stringify(values.topics), values.snoozedUntil],
    );
    return updated[0];
  }

  /**
   * One statement: sets `subscribed` on the project's contacts among `ids` whose state differs and
   * stores one event `eventName` per flip. Answers the ids found, the ids flipped and the events.
   */
  async setSubscribedMany(
    projectId: string,
    ids: string[],
    subscribed: boolean,
    event: { name: string; data: JsonObject },
    manager?: EntityManager,
  ): Promise<{ found: string[] | null; flipped: string[] | null; events: EventRow[] }> {
    const rows: Array<{ found: string[] | null; flipped: string[] | null; events: EventRow[] }> = await (manager ?? this.dataSource.manager).query(
      `WITH old AS (
         SELECT id, subscribed FROM contacts WHERE project_id = $1 AND id = ANY($2::text[]) FOR UPDATE
       ), up AS (
         UPDATE contacts c SET subscribed = $3, updated_at = now()
         FROM old WHERE c.id = old.id AND old.subscribed <> $3
         RETURNING c.id
       ), ev AS (${insertEventsSql({ projectId: '$1', contactId: 'up.id', name: '$4', data: '$5::jsonb' }, 'FROM up')})
       SELECT (SELECT array_agg(id) FROM old) AS found, (SELECT array_agg(id) FROM up) AS flipped,
              (SELECT coalesce(json_agg(ev), '[]'::json) FROM ev) AS events`,
      [projectId, ids, subscribed, event.name, JSON.stringify(event.data)],
    );
    return rows[0];
  }

  /**
   * Double opt-in: marks an unsubscribed contact `pending` and, when its last confirmation email
   * is older than `intervalSeconds` (or there was none), stamps a new one (`due`: send it now);
   * otherwise `waitSeconds` until the next may leave. Null for a subscribed or absent contact, and
   * with `owedOnly` for one whose `confirmation_requested_at` is not set (another process wrote
   * its email first: the row lock makes the second wait and then see the marker cleared).
   * Clears the marker; run in the transaction that writes the email (`manager`), so the stamp
   * and the cleared marker commit with it or not at all.
   */
  async markConfirmationPending(
    projectId: string,
    id: string,
    intervalSeconds: number,
    owedOnly: boolean,
    manager: EntityManager,
  ): Promise<{ row: ContactRow; due: boolean; waitSeconds: number } | null> {
    const [rows]: [Array<ContactRow & { due: boolean; wait_seconds: number | null }>, number] = await manager.query(
      `WITH old AS (
         SELECT id AS cid, confirmation_sent_at AS sent FROM contacts
         WHERE project_id = $1 AND id = $2 AND NOT subscribed AND (NOT $4::boolean OR confirmation_requested_at IS NOT NULL) FOR UPDATE
       ), x AS (
         SELECT cid, sent, (sent IS NULL OR sent <= now() - make_interval(secs => $3)) AS due FROM old
       )
       UPDATE contacts SET confirmation = 'pending',
              confirmation_sent_at = CASE WHEN x.due THEN now() ELSE confirmation_sent_at END,
              confirmation_requested_at = NULL,
              updated_at = CASE WHEN x.due OR confirmation IS DISTINCT FROM 'pending' THEN now() ELSE updated_at END
       FROM x WHERE contacts.project_id = $1 AND contacts.id = x.cid
       RETURNING ${CONTACT_COLUMNS}, x.due, ceil(extract(epoch FROM (x.sent + make_interval(secs => $3) - now())))::int AS wait_seconds`,
      [projectId, id, intervalSeconds, owedOnly],
    );
    const row = rows[0];
    return row ? { row, due: row.due, waitSeconds: Math.max(1, row.wait_seconds ?? 1) } : null;
  }

  /**
   * Contacts asked to confirm more than `graceSeconds` ago whose confirmation email was never
   * written (a crash after the upsert's commit), oldest first; markers left on contacts that
   * have since been subscribed are dropped (there is nothing to confirm).
   */
  async owedConfirmations(graceSeconds: number, limit: number): Promise<Array<{ projectId: string; id: string }>> {
    const rows: Array<{ project_id: string; id: string }> = await this.dataSource.query(
      `WITH dropped AS (
         UPDATE contacts SET confirmation_requested_at = NULL WHERE confirmation_requested_at IS NOT NULL AND subscribed
       )
       SELECT project_id, id FROM contacts
       WHERE confirmation_requested_at < now() - make_interval(secs => $1) AND NOT subscribed
       ORDER BY confirmation_requested_at LIMIT $2`,
      [graceSeconds, limit],
    );
    return rows.map((r) => ({ projectId: r.project_id, id: r.id }));
  }

  /**
   * Confirms a `pending` contact: subscribed, `confirmed`, `confirmedAt` now. Null when the contact
   * is absent or not pending (already confirmed: nothing to do); `flipped` when it was unsubscribed.
   */
  async confirm(projectId: string, id: string, manager: EntityManager): Promise<{ row: ContactRow; flipped: boolean } | null> {
    const [rows]: [Array<ContactRow & { was_subscribed: boolean }>, number] = await manager.query(
      `WITH old AS (
         SELECT id AS cid, subscribed AS was_subscribed FROM contacts WHERE project_id = $1 AND id = $2 AND confirmation = 'pending' FOR UPDATE
       )
       UPDATE contacts SET subscribed = true, confirmation = 'confirmed', confirmed_at = now(), confirmation_requested_at = NULL, updated_at = now()
       FROM old WHERE contacts.project_id = $1 AND contacts.id = old.cid
       RETURNING ${CONTACT_COLUMNS}, old.was_subscribed`,
      [projectId, id],
    );
    const row = rows[0];
    return row ? { row, flipped: !row.was_subscribed } : null;
  }

  /** Removes the choice of a topic slug from every contact of the project that made one (the topic is being deleted). */
  async removeTopicChoice(projectId: string, slug: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE contacts SET topics = topics - $2::text WHERE project_id = $1 AND topics ? $2`, [projectId, slug]);
  }

  /** Deletes one contact; answers how many rows went (0 or 1). */
  async remove(projectId: string, id: string): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(`DELETE FROM contacts WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return result[1];
  }

  /** Deletes the project's contacts among `ids`; answers the ids deleted. */
  async removeMany(projectId: string, ids: string[], manager?: EntityManager): Promise<string[]> {
    const deleted: Array<{ id: string }> = await (manager ?? this.dataSource.manager).query(
      `WITH gone AS (DELETE FROM contacts WHERE project_id = $1 AND id = ANY($2::text[]) RETURNING id) SELECT id FROM gone`,
      [projectId, ids],
    );
    return deleted.map((row) => row.id);
  }

  /** The project's contacts with these addresses (already normalized); addresses without a contact are absent. */
  idsByEmail(projectId: string, emails: string[], manager?: EntityManager): Promise<Array<{ id: string; email: string }>> {
    return (manager ?? this.dataSource).query(`SELECT id, email FROM contacts WHERE project_id = $1 AND email = ANY($2::text[])`, [projectId, emails]);
  }

  /**
   * One keyset page, by id, of the project's contacts that `where` (a condition over alias `c`)
   * selects: the bulk export's read, on `contacts_project_id_idx`. No transaction is held between pages.
   */
  exportPage(projectId: string, where: Fragment, afterId: string | null, limit: number): Promise<ContactRow[]> {
    const after = afterId === null ? sql`TRUE` : sql`c.id > ${afterId}`;
    const page = sql`SELECT ${QUALIFIED_COLUMNS} FROM contacts c
      WHERE c.project_id = ${projectId}::uuid AND ${after} AND (${where}) ORDER BY c.id LIMIT ${limit}`;
    return this.dataSource.query(page.text, page.values);
  }

  /** One keyset page of the project's contacts and, on a first page, the filtered total (statements of `sql/list-contacts.sql.ts` for `projectId`). */
  async listPage(projectId: string, statements: ListContactsStatements): Promise<{ rows: Array<ContactRow & { created_key: string }>; total: number }> {
    const [rows, countRows] = await Promise.all([
      this.dataSource.query(statements.page.text, statements.page.params) as Promise<Array<ContactRow & { created_key: string }>>,
      statements.count ? (this.dataSource.query(statements.count.text, statements.count.params) as Promise<Array<{ total: number }>>) : Promise.resolve([{ total: 0 }]),
    ]);
    return { rows, total: countRows[0].total };
  }

  /** Key coverage of the project's contacts: per dotted `data` path, the contacts with a non-null value there, and the total. */
  async dataCoverage(projectId: string): Promise<{ counts: Array<{ key: string; n: number }>; total: number }> {
    const [counts, totals] = await Promise.all([
      this.dataSource.query(
        `WITH RECURSIVE walk(id, path, value) AS (
           SELECT c.id, e.key, e.value FROM contacts c, jsonb_each(c.data) e
            WHERE c.project_id = $1 AND jsonb_typeof(c.data) = 'object'
           UNION ALL
           SELECT w.id, w.path || '.' || e.key, e.value FROM walk w, jsonb_each(w.value) e
            WHERE jsonb_typeof(w.value) = 'object'
         )
         SELECT path AS key, count(DISTINCT id)::int AS n FROM walk WHERE jsonb_typeof(value) <> 'null' GROUP BY path`,
        [projectId],
      ) as Promise<Array<{ key: string; n: number }>>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM contacts WHERE project_id = $1`, [projectId]) as Promise<Array<{ total: number }>>,
    ]);
    return { counts, total: totals[0].total };
  }

  /**
   * Distinct values of a standard column (`column`, trusted) or a `data` path, most frequent
   * first (ties by value), from `offset`; with `withTotal`, the number of distinct values too.
   */
  async distinctValues(
    projectId: string,
    field: { column: string } | { path: string[] },
    page: { limit: number; offset: number; withTotal: boolean },
  ): Promise<{ rows: Array<{ value: unknown; count: number }>; total: number }> {
    const expr = 'column' in field ? `to_jsonb(${field.column})` : `data #> $2::text[]`;
    const params: unknown[] = 'column' in field ? [projectId] : [projectId, field.path];
    const where = `project_id = $1 AND coalesce(jsonb_typeof(${expr}), 'null') <> 'null'`;
    const n = params.length;
    const [rows, totals] = await Promise.all([
      this.dataSource.query(
        `SELECT ${expr} AS value, count(*)::int AS count FROM contacts WHERE ${where}
         GROUP BY 1 ORDER BY 2 DESC, 1 ASC LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, page.limit, page.offset],
      ) as Promise<Array<{ value: unknown; count: number }>>,
      page.withTotal
        ? (this.dataSource.query(`SELECT count(DISTINCT ${expr})::int AS total FROM contacts WHERE ${where}`, params) as Promise<Array<{ total: number }>>)
        : Promise.resolve([{ total: 0 }]),
    ]);
    return { rows, total: totals[0].total };
  }

  /** Removes a `data` path from every contact of the project that has it, in the caller's transaction; answers how many changed. */
  async removeDataPath(projectId: string, path: string[], manager: EntityManager): Promise<number> {
    const updated: [unknown[], number] = await manager.query(
      `UPDATE contacts SET data = data #- $2::text[], updated_at = now()
       WHERE project_id = $1 AND data #> $2::text[] IS NOT NULL`,
      [projectId, path],
    );
    return updated[1];
  }
}
