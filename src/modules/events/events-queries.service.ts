import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { clampLimit, CursorPage, cursorPage, decodeCursor, PG_TIMESTAMP } from '../../platform/http/pagination';
import { isContactId } from '../contacts/contact-id';
import { ContactDirectory } from './contact-directory';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import { referencesOf, References } from '../../platform/usage/usage-response';
import { EventListRow, EventResponse, toEventResponse } from './dto/event.response';
import type { ListEventsQuery } from './dto/list-events.query';
import { eventContactNotFound, eventNameNotFound, reservedEventNotDeletable } from './events.errors';
import { isReservedEventName } from './reserved-names';
import { isUuid } from '../../platform/http/parse-uuid.pipe';

const EVENT_NAME = /^[^\u0000-\u001f\u007f]{1,200}$/;

export interface EventNameStats {
  name: string;
  total: number;
  last24h: number;
  last7d: number;
  last30d: number;
  lastSeenAt: string;
}

/** Which events a page holds: a name in `anyOf` or (with `noneOf`) a name outside it; a contact; a campaign (`data.campaignId`). */
export interface EventPageFilter {
  names?: { anyOf?: string[]; noneOf?: string[] };
  contactId?: string;
  campaignId?: string;
}

/** Reads of the events table: newest first, keyset-paginated on (created_at, id). */
@Injectable()
export class EventsQueriesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly usageRegistry: UsageRegistry,
    private readonly contacts: ContactDirectory,
    setup: SetupProbes,
  ) {
    setup.register('hasEvents', async (projectId) => {
      const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM events WHERE project_id = $1 LIMIT 1`, [projectId]);
      return rows.length > 0;
    });
  }

  async list(projectId: string, query: ListEventsQuery): Promise<CursorPage<EventResponse>> {
    // A malformed or foreign contact id filters to nothing rather than erroring: it is a filter.
    if (query.contactId !== undefined && !isContactId(query.contactId)) return { data: [], cursor: null, hasMore: false, total: 0 };
    return this.page(projectId, { names: query.name !== undefined ? { anyOf: [query.name] } : undefined, contactId: query.contactId }, query, toEventResponse, true);
  }

  async forContact(projectId: string, contactId: string, query: ListEventsQuery): Promise<CursorPage<EventResponse>> {
    if (!isContactId(contactId)) throw eventContactNotFound();
    if (!(await this.contacts.exists(projectId, contactId))) throw eventContactNotFound();
    return this.page(projectId, { names: query.name !== undefined ? { anyOf: [query.name] } : undefined, contactId }, query, toEventResponse, true);
  }

  /** How many events the project recorded in the last `minutes`. */
  async recentCount(projectId: string, minutes: number): Promise<number> {
    const [row]: Array<{ count: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM events WHERE project_id = $1 AND created_at > now() - make_interval(mins => $2)`,
      [projectId, minutes],
    );
    return row.count;
  }

  async names(projectId: string): Promise<{ names: Array<{ name: string; count: number; lastSeenAt: string }> }> {
    const rows: Array<{ name: string; count: number; last: Date }> = await this.dataSource.query(
      `SELECT name, count(*)::int AS count, max(created_at) AS last FROM events WHERE project_id = $1 GROUP BY name ORDER BY name`,
      [projectId],
    );
    return { names: rows.map((r) => ({ name: r.name, count: r.count, lastSeenAt: new Date(r.last).toISOString() })) };
  }

  /** Totals overall and per name, with rolling 24 h / 7 d / 30 d counts (from the database clock). */
  async stats(projectId: string): Promise<{ total: number; last24h: number; last7d: number; last30d: number; uniqueNames: number; events: EventNameStats[] }> {
    const rows: Array<{ name: string; total: number; d1: number; d7: number; d30: number; last: Date }> = await this.dataSource.query(
      `SELECT name, count(*)::int AS total,
              count(*) FILTER (WHERE created_at > now() - interval '24 hours')::int AS d1,
              count(*) FILTER (WHERE created_at > now() - interval '7 days')::int AS d7,
              count(*) FILTER (WHERE created_at > now() - interval '30 days')::int AS d30,
              max(created_at) AS last
       FROM events WHERE project_id = $1 GROUP BY name ORDER BY 2 DESC, 1`,
      [projectId],
    );
    const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((acc, r) => acc + pick(r), 0);
    return {
      total: sum((r) => r.total),
      last24h: sum((r) => r.d1),
      last7d: sum((r) => r.d7),
      last30d: sum((r) => r.d30),
      uniqueNames: rows.length,
      events: rows.map((r) => ({ name: r.name, total: r.total, last24h: r.d1, last7d: r.d7, last30d: r.d30, lastSeenAt: new Date(r.last).toISOString() })),
    };
  }

  async usage(projectId: string, name: string): Promise<{ event: string } & References & { total: number }> {
    if (!EVENT_NAME.test(name)) throw eventNameNotFound(name);
    const refs = referencesOf(await this.usageRegistry.find(projectId, { kind: 'event', name }));
    return { event: name, ...refs, total: refs.segments.length + refs.campaigns.length + refs.workflows.length };
  }

  /** Deletes every event with the name; system names are refused (their history feeds segments and stats). */
  async removeByName(projectId: string, name: string): Promise<void> {
    if (!EVENT_NAME.test(name)) throw eventNameNotFound(name);
    if (isReservedEventName(name)) throw reservedEventNotDeletable(name);
    const result: [unknown[], number] = await this.dataSource.query(`DELETE FROM events WHERE project_id = $1 AND name = $2`, [projectId, name]);
    if (!result[1]) throw eventNameNotFound(name);
  }

  /**
   * The `email.*` events about one email (`data.emailId`), oldest first. They belong to the email's
   * contact and follow the email's creation, so `events_contact_created_idx` reads only that
   * contact's events since then (a deleted contact's events went with it).
   */
  async ofEmail(projectId: string, email: { id: string; contactId: string | null; createdAt: Date }): Promise<Array<{ name: string; data: Record<string, unknown>; createdAt: string }>> {
    const rows: Array<{ name: string; data: Record<string, unknown>; created_at: Date }> = await this.dataSource.query(
      `SELECT name, data, created_at FROM events
        WHERE ${email.contactId === null ? 'contact_id IS NULL' : 'contact_id = $4'} AND created_at >= $3 AND project_id = $1
          AND name LIKE 'email.%' AND data->>'emailId' = $2
        ORDER BY created_at, seq`,
      email.contactId === null ? [projectId, email.id, email.createdAt] : [projectId, email.id, email.createdAt, email.contactId],
    );
    return rows.map((r) => ({ name: r.name, data: r.data, createdAt: new Date(r.created_at).toISOString() }));
  }

  /**
   * One keyset page of the project's events, newest first (`created_at`, `id`), each with its
   * contact's address: the event list and the activity feed. `total` counts the whole filter on
   * the first page when asked (0 otherwise).
   */
  async page<T>(projectId: string, filter: EventPageFilter, query: { cursor?: string; limit?: unknown }, map: (row: EventListRow) => T, withTotal: boolean): Promise<CursorPage<T>> {
    const limit = clampLimit(query.limit);
    const cursor = decodeCursor<{ v: string; id: string }>(query.cursor, (c) => typeof c.v === 'string' && PG_TIMESTAMP.test(c.v) && typeof c.id === 'string' && isUuid(c.id));
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
      this.dataSource.query(
        `SELECT e.id, e.name, e.contact_id, e.data, e.created_at, e.created_at::text AS created_key
         FROM events e
         WHERE ${filters.join(' AND ')} ORDER BY e.created_at DESC, e.id DESC LIMIT $${params.length}`,
        params,
      ) as Promise<Array<Omit<EventListRow, 'contact_email'>>>,
      cursor || !withTotal
        ? Promise.resolve([{ total: 0 }])
        : (this.dataSource.query(`SELECT count(*)::int AS total FROM events e WHERE ${countFilters.join(' AND ')}`, countParams) as Promise<Array<{ total: number }>>),
    ]);
    const emails = await this.contacts.emailsOf(projectId, [...new Set(rows.flatMap((r) => (r.contact_id ? [r.contact_id] : [])))]);
    const listed: EventListRow[] = rows.map((r) => ({ ...r, contact_email: r.contact_id ? (emails.get(r.contact_id) ?? null) : null }));
    return cursorPage(listed, limit, map, (last) => ({ v: last.created_key, id: last.id }), totals[0].total);
  }
}
