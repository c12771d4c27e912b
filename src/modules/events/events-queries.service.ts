import { Injectable } from '@nestjs/common';
import { clampLimit, CursorPage, cursorPage, decodeCursor, PG_TIMESTAMP } from '../../platform/http/pagination';
import { isContactId } from './contact-id';
import { ContactDirectory } from './contact-directory';
import { SetupProbes } from '../../platform/usage/setup-probes.registry';
import { UsageRegistry } from '../../platform/usage/usage.registry';
import { referencesOf, References } from '../../platform/usage/usage-response';
import { EventResponse, toEventResponse } from './dto/event.response';
import type { EventListRow } from './events.rows';
import type { ListEventsQuery } from './dto/list-events.query';
import { EventPageFilter, EventsRepository } from './events.repository';
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

export type { EventPageFilter } from './events.repository';

/** Reads of the events table: newest first, keyset-paginated on (created_at, id). */
@Injectable()
export class EventsQueriesService {
  constructor(
    private readonly repository: EventsRepository,
    private readonly usageRegistry: UsageRegistry,
    private readonly contacts: ContactDirectory,
    setup: SetupProbes,
  ) {
    setup.register('hasEvents', (projectId) => this.repository.hasAny(projectId));
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
    return this.repository.recentCount(projectId, minutes);
  }

  async names(projectId: string): Promise<{ names: Array<{ name: string; count: number; lastSeenAt: string }> }> {
    const rows = await this.repository.names(projectId);
    return { names: rows.map((r) => ({ name: r.name, count: r.count, lastSeenAt: new Date(r.last).toISOString() })) };
  }

  /** Totals overall and per name, with rolling 24 h / 7 d / 30 d counts (from the database clock). */
  async stats(projectId: string): Promise<{ total: number; last24h: number; last7d: number; last30d: number; uniqueNames: number; events: EventNameStats[] }> {
    const rows = await this.repository.nameStats(projectId);
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
    if (!(await this.repository.deleteByName(projectId, name))) throw eventNameNotFound(name);
  }

  /** The `email.*` events about one email (`data.emailId`), oldest first. */
  async ofEmail(projectId: string, email: { id: string; contactId: string | null; createdAt: Date }): Promise<Array<{ name: string; data: Record<string, unknown>; createdAt: string }>> {
    const rows = await this.repository.ofEmail(projectId, email);
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
    const { rows, total } = await this.repository.page(projectId, filter, cursor ?? null, limit, withTotal && !cursor);
    const emails = await this.contacts.emailsOf(projectId, [...new Set(rows.flatMap((r) => (r.contact_id ? [r.contact_id] : [])))]);
    const listed: EventListRow[] = rows.map((r) => ({ ...r, contact_email: r.contact_id ? (emails.get(r.contact_id) ?? null) : null }));
    return cursorPage(listed, limit, map, (last) => ({ v: last.created_key, id: last.id }), total);
  }
}
