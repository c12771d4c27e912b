import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { badRequest } from '../../platform/http/app-error';
import { clampLimit, cursorPage, decodeCursor, parsePositiveInt } from '../../platform/http/pagination';
import { isContactId } from '../contacts/contact-id';
import { parseRange } from './activity-range';
import { ActivityRegistry, UpcomingItem } from './activity.registry';
import { ACTIVITY_TYPES, activityTypeOf, ActivityType, EMAIL_ACTIVITY_TYPES, METRIC_NAMES } from './activity.types';
import { ActivityItem, ActivityRow, toActivityItem } from './dto/activity-item.response';
import type { ListActivityQuery, RangeQuery, RecentCountQuery } from './dto/activity.query';
import { isUuid } from '../../platform/http/parse-uuid.pipe';

const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;
/** `/activity/recent-count?minutes`: default one hour, at most a week (larger values are clamped). */
const RECENT_DEFAULT_MINUTES = 60;
const RECENT_MAX_MINUTES = 7 * 24 * 60;

export interface ActivityPage {
  data: ActivityItem[];
  cursor: string | null;
  hasMore: boolean;
}

export type ActivityStats = Record<keyof typeof METRIC_NAMES | 'events', number>;

/**
 * The activity feed is the project's events table (the pipeline, tracking and inbound mail store
 * their `email.*` events there beside tracked events): one keyset query per page. Stats read the
 * hourly rollup (`event_counts_hourly`), whose size grows with hours and names, not with events.
 */
@Injectable()
export class ActivityService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: ActivityRegistry,
  ) {}

  async feed(projectId: string, query: ListActivityQuery): Promise<ActivityPage> {
    const limit = clampLimit(query.limit);
    const cursor = decodeCursor<{ v: string; id: string }>(query.cursor, (c) => typeof c.v === 'string' && PG_TIMESTAMP.test(c.v) && typeof c.id === 'string' && isUuid(c.id));
    const empty: ActivityPage = { data: [], cursor: null, hasMore: false };
    // Filters, not lookups: a malformed id matches nothing.
    if (query.contactId !== undefined && !isContactId(query.contactId)) return empty;
    if (query.campaignId !== undefined && !isUuid(query.campaignId)) return empty;
    const params: unknown[] = [projectId];
    const filters = ['e.project_id = $1'];
    const typeFilter = this.typeFilter(query.types, params);
    if (typeFilter) filters.push(typeFilter);
    if (query.contactId !== undefined) {
      params.push(query.contactId);
      filters.push(`e.contact_id = $${params.length}`);
    }
    if (query.campaignId !== undefined) {
      params.push(query.campaignId.toLowerCase());
      filters.push(`e.data->>'campaignId' = $${params.length}`);
    }
    if (cursor) {
      params.push(cursor.v, cursor.id);
      filters.push(`(e.created_at, e.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    params.push(limit + 1);
    const rows: ActivityRow[] = await this.dataSource.query(
      `SELECT e.id, e.name, e.contact_id, c.email AS contact_email, e.data, e.created_at, e.created_at::text AS created_key
       FROM events e LEFT JOIN contacts c ON c.id = e.contact_id
       WHERE ${filters.join(' AND ')} ORDER BY e.created_at DESC, e.id DESC LIMIT $${params.length}`,
      params,
    );
    const { data, cursor: next, hasMore } = cursorPage(rows, limit, toActivityItem, (last) => ({ v: last.created_key, id: last.id }), 0);
    return { data, cursor: next, hasMore };
  }

  async stats(projectId: string, query: RangeQuery): Promise<ActivityStats> {
    const { from, to } = parseRange(query);
    const rows: Array<{ name: string; total: string }> = await this.dataSource.query(
      `SELECT name, sum(count)::bigint AS total FROM event_counts_hourly
       WHERE project_id = $1 AND hour >= date_trunc('hour', $2::timestamptz, 'UTC') AND hour < $3::timestamptz
       GROUP BY name`,
      [projectId, from.toISOString(), to.toISOString()],
    );
    const byName = new Map(rows.map((r) => [r.name, Number(r.total)]));
    const stats = Object.fromEntries(Object.entries(METRIC_NAMES).map(([key, name]) => [key, byName.get(name) ?? 0])) as ActivityStats;
    stats.events = rows.filter((r) => activityTypeOf(r.name) === 'event').reduce((sum, r) => sum + Number(r.total), 0);
    return stats;
  }

  async recentCount(projectId: string, query: RecentCountQuery): Promise<{ count: number }> {
    const minutes = parsePositiveInt(query.minutes, 'minutes', RECENT_DEFAULT_MINUTES, RECENT_MAX_MINUTES);
    const [row]: Array<{ count: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM events WHERE project_id = $1 AND created_at > now() - make_interval(mins => $2)`,
      [projectId, minutes],
    );
    return { count: row.count };
  }

  async types(projectId: string): Promise<{ types: ActivityType[] }> {
    const rows: Array<{ name: string }> = await this.dataSource.query(`SELECT DISTINCT name FROM event_counts_hourly WHERE project_id = $1 AND count > 0`, [projectId]);
    const present = new Set(rows.map((r) => activityTypeOf(r.name)));
    return { types: ACTIVITY_TYPES.filter((t) => present.has(t)) };
  }

  async upcoming(projectId: string): Promise<{ campaigns: UpcomingItem[]; executions: UpcomingItem[] }> {
    const [campaigns, executions] = await Promise.all([this.registry.upcomingOf('campaigns', projectId), this.registry.upcomingOf('executions', projectId)]);
    return { campaigns, executions };
  }

  /** `types=email.open,event`: unknown names are 400; `event` means every name outside the email lifecycle. */
  private typeFilter(raw: string | undefined, params: unknown[]): string | null {
    if (raw === undefined || raw.trim() === '') return null;
    const types = [...new Set(raw.split(',').map((t) => t.trim()).filter(Boolean))];
    const unknown = types.filter((t) => !(ACTIVITY_TYPES as readonly string[]).includes(t));
    if (unknown.length) throw badRequest(`Unknown activity type: ${unknown.join(', ')}`, { details: { allowed: ACTIVITY_TYPES } });
    const clauses: string[] = [];
    const emailTypes = types.filter((t) => t !== 'event');
    if (emailTypes.length) {
      params.push(emailTypes);
      clauses.push(`e.name = ANY($${params.length}::text[])`);
    }
    if (types.includes('event')) {
      params.push([...EMAIL_ACTIVITY_TYPES]);
      clauses.push(`e.name <> ALL($${params.length}::text[])`);
    }
    return `(${clauses.join(' OR ')})`;
  }
}
