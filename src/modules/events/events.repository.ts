import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { EventListRow } from './events.rows';
import { insertEventsSql } from './events-insert.sql';
import type { EventRow } from './events.types';
import { StatementRunner } from '../../platform/database/statement-runner';
import { HistoryPartitions } from '../../platform/database/history-partitions';

/** One event of a set-based write; events of several projects may share one statement. */
export interface EventInsertRow {
  projectId: string;
  contactId: string | null;
  name: string;
  data?: Record<string, unknown>;
}

/** Which events a page holds: a name in `anyOf` or (with `noneOf`) a name outside it; a contact; a campaign (`data.campaignId`). */
export interface EventPageFilter {
  names?: { anyOf?: string[]; noneOf?: string[] };
  contactId?: string;
  campaignId?: string;
}

export interface EventNameStatsRow {
  name: string;
  total: number;
  d1: number;
  d7: number;
  d30: number;
  last: Date;
}

const RECORD_MANY_SQL = insertEventsSql(
  { projectId: "(x.e->>'project_id')::uuid", contactId: "x.e->>'contact_id'", name: "x.e->>'name'", data: "x.e->'data'" },
  'FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n) ORDER BY x.n',
);

/** The events module's table `events` (the outbox's cursors are `outbox/event-cursors.store.ts`'s). */
@Injectable()
export class EventsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly partitions: HistoryPartitions,
    private readonly statements: StatementRunner,
  ) {}

  /** Many events (of any projects) in one statement, in the given order, inside the caller's transaction with `manager`. */
  async insertManyAcrossProjects(events: EventInsertRow[], manager: EntityManager = this.dataSource.manager): Promise<EventRow[]> {
    return manager.query(RECORD_MANY_SQL, [
      JSON.stringify(events.map((e) => ({ project_id: e.projectId, contact_id: e.contactId, name: e.name, data: e.data ?? {} }))),
    ]);
  }

  /** The `data` of the project's latest `limit` events with one of these names, newest first. */
  async recentData(projectId: string, names: string[], limit: number): Promise<Array<Record<string, unknown>>> {
    const rows: Array<{ data: Record<string, unknown> }> = await this.dataSource.query(
      `SELECT data FROM events WHERE project_id = $1 AND name = ANY($2::text[]) ORDER BY created_at DESC LIMIT $3`,
      [projectId, names, limit],
    );
    return rows.map((r) => r.data);
  }

  async hasAny(projectId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM events WHERE project_id = $1 LIMIT 1`, [projectId]);
    return rows.length > 0;
  }

  /** How many events the project recorded in the last `minutes`. */
  /**
   * The project's oldest event, without an index on (project_id, created_at): a skip scan of its
   * names (`events_project_name_created_idx`, one probe per name), then the oldest of each name
   * (one probe each).
   */
  async oldestOfProject(projectId: string): Promise<Date | null> {
    const [row] = (await this.dataSource.query(
      `WITH RECURSIVE names(name) AS (
         (SELECT name FROM events WHERE project_id = $1 ORDER BY name LIMIT 1)
         UNION ALL
         SELECT (SELECT e.name FROM events e WHERE e.project_id = $1 AND e.name > n.name ORDER BY e.name LIMIT 1) FROM names n WHERE n.name IS NOT NULL
       )
       SELECT min((SELECT e.created_at FROM events e WHERE e.project_id = $1 AND e.name = n.name ORDER BY e.created_at LIMIT 1)) AS at
         FROM names n WHERE n.name IS NOT NULL`,
      [projectId],
    )) as Array<{ at: Date | null }>;
    return row?.at ? new Date(row.at) : null;
  }

  async recentCount(projectId: string, minutes: number): Promise<number> {
    const [row]: Array<{ count: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM events WHERE project_id = $1 AND created_at > now() - make_interval(mins => $2)`,
      [projectId, minutes],
    );
    return row.count;
  }

  /** Each event name of the project with its count and latest time, by name. */
  names(projectId: string): Promise<Array<{ name: string; count: number; last: Date }>> {
    return this.dataSource.query(
      `SELECT name, count(*)::int AS count, max(created_at) AS last FROM events WHERE project_id = $1 GROUP BY name ORDER BY name`,
      [projectId],
    );
  }

  /** Per name: the total and rolling 24 h / 7 d / 30 d counts (from the database clock), most frequent first. */
  nameStats(projectId: string): Promise<EventNameStatsRow[]> {
    return this.dataSource.query(
      `SELECT name, count(*)::int AS total,
              count(*) FILTER (WHERE created_at > now() - interval '24 hours')::int AS d1,
              count(*) FILTER (WHERE created_at > now() - interval '7 days')::int AS d7,
              count(*) FILTER (WHERE created_at > now() - interval '30 days')::int AS d30,
              max(created_at) AS last
       FROM events WHERE project_id = $1 GROUP BY name ORDER BY 2 DESC, 1`,
      [projectId],
    );
  }

  /**
   * Deletes every event of one contact (its erasure), leaving the hourly rollup as it was
   * (`mailroom.keep_rollups`, for the rest of the transaction: the contact's delete cascades to
   * events it may have got meanwhile), so the analytics of the period answer as before.
   */
  async deleteOfContactKeepingRollups(projectId: string, contactId: string, manager?: EntityManager): Promise<void> {
    const run = async (em: EntityManager) => {
      await keepRollups(em);
      await em.query(`DELETE FROM events WHERE project_id = $1 AND contact_id = $2`, [projectId, contactId]);
    };
    await (manager ? run(manager) : this.dataSource.transaction(run));
  }

  /**
   * Retention: up to `limit` of the project's events made in the range, oldest first, in one short
   * transaction, leaving the hourly rollup as it was (the analytics of a pruned period answer as before).
   */
  pruneBatch(projectId: string, range: { from: Date | null; before: Date }, limit: number): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      await keepRollups(em);
      return (await this.partitions.deleteBatch(em, 'events', projectId, range, limit)).length;
    });
  }

  /** Deletes every event of the project with this name; how many went. */
  async deleteByName(projectId: string, name: string): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(`DELETE FROM events WHERE project_id = $1 AND name = $2`, [projectId, name]);
    return result[1];
  }

  /**
   * The `email.*` events about one email (`data.emailId`), oldest first. They belong to the email's
   * contact and follow the email's creation, so `events_contact_created_idx` reads only that
   * contact's events since then (a deleted contact's events went with it).
   */
  ofEmail(projectId: string, email: { id: string; contactId: string | null; createdAt: Date }): Promise<Array<{ name: string; data: Record<string, unknown>; created_at: Date }>> {
    return this.dataSource.query(
      `SELECT name, data, created_at FROM events
        WHERE ${email.contactId === null ? 'contact_id IS NULL' : 'contact_id = $4'} AND created_at >= $3 AND project_id = $1
          AND name LIKE 'email.%' AND data->>'emailId' = $2
        ORDER BY created_at, seq`,
      email.contactId === null ? [projectId, email.id, email.createdAt] : [projectId, email.id, email.createdAt, email.contactId],
    );
  }

  /**
   * One keyset page of the project's events, newest first (`created_at`, `id`), `limit + 1` rows
   * (the extra one tells there is more), and with `withTotal` the whole filter's count (0 otherwise).
   */
  async page(
    projectId: string,
    filter: EventPageFilter,
    cursor: { v: string; id: string } | null,
    limit: number,
    withTotal: boolean,
  ): Promise<{ rows: Array<Omit<EventListRow, 'contact_email'>>; total: number }> {
    const params: unknown[] = [projectId];
    const filters = ['e.project_id = $1'];
    const names: string[] = [];
    if (filter.names?.anyOf?.length === 1) {
      // A plain equality for one name: the (project_id, name, created_at) index, scanned backwards, then returns the page in order.
      params.push(filter.names.anyOf[0]);
      names.push(`e.name = $${params.length}`);
    } else if (filter.names?.anyOf) {
      params.push(filter.names.anyOf);
      names.push(`e.name = ANY($${params.length}::text[])`);
    }
    if (filter.names?.noneOf) {
      params.push(filter.names.noneOf);
      names.push(`e.name <> ALL($${params.length}::text[])`);
    }
    if (names.length > 0) filters.push(`(${names.join(' OR ')})`);
    if (filter.contactId !== undefined) {
      params.push(filter.contactId);
      filters.push(`e.contact_id = $${params.length}`);
    }
    if (filter.campaignId !== undefined) {
      params.push(filter.campaignId.toLowerCase());
      filters.push(`e.data->>'campaignId' = $${params.length}`);
    }
    const countParams = [...params];
    const countFilters = [...filters];
    if (cursor) {
      params.push(cursor.v, cursor.id);
      filters.push(`(e.created_at, e.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    params.push(limit + 1);
    const [rows, totals] = await Promise.all([
      // A prepared statement: planning a read of every month partition costs more than reading
      // the page (~1 ms against ~0.1 ms with a few months, growing with each month kept); its
      // generic plan prunes partitions when it runs.
      this.statements.run<Omit<EventListRow, 'contact_email'>>(
        `SELECT e.id, e.name, e.contact_id, e.data, e.created_at, e.created_at::text AS created_key
         FROM events e
         WHERE ${filters.join(' AND ')} ORDER BY e.created_at DESC, e.id DESC LIMIT $${params.length}`,
        params,
      ),
      !withTotal
        ? Promise.resolve([{ total: 0 }])
        : (this.dataSource.query(`SELECT count(*)::int AS total FROM events e WHERE ${countFilters.join(' AND ')}`, countParams) as Promise<Array<{ total: number }>>),
    ]);
    return { rows, total: totals[0].total };
  }
}

/** For the rest of the transaction, deleted events stay counted in the hourly rollup (the delete trigger honours `mailroom.keep_rollups`). */
async function keepRollups(em: EntityManager): Promise<void> {
  await em.query(`SELECT set_config('mailroom.keep_rollups', 'on', true)`);
}
