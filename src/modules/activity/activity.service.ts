import { Injectable } from '@nestjs/common';
import { badRequest } from '../../platform/http/app-error';
import { CursorPage, parsePositiveInt } from '../../platform/http/pagination';
import { ContactDirectory, EventPageFilter, EventsQueriesService, isContactId } from '../events';
import { parseRange } from './activity-range';
import { ActivityRegistry, ContactExecution, UpcomingCampaign } from './activity.registry';
import { ActivityRepository } from './activity.repository';
import { ACTIVITY_TYPES, activityTypeOf, ActivityStats, ActivityType, EMAIL_ACTIVITY_TYPES, METRIC_NAMES } from './activity.types';
import { ActivityItem, toActivityItem, UpcomingExecutionSchema } from './dto/activity-item.response';
import type { ListActivityQuery, RangeQuery, RecentCountQuery } from './dto/activity.query';
import { isUuid } from '../../platform/http/parse-uuid.pipe';

/** `/activity/recent-count?minutes`: default one hour, at most a week (larger values are clamped). */
const RECENT_DEFAULT_MINUTES = 60;
const RECENT_MAX_MINUTES = 7 * 24 * 60;
/** How many executions a contact's timeline lists (newest first). */
const CONTACT_EXECUTIONS_LIMIT = 100;

/**
 * The activity feed is the project's events table (the pipeline, tracking and inbound mail store
 * their `email.*` events there beside tracked events): one keyset query per page. Stats, and the
 * feed's `total` when it filters by type only, read the hourly rollup (`event_counts_hourly`),
 * whose size grows with hours and names, not with events.
 */
@Injectable()
export class ActivityService {
  constructor(
    private readonly repository: ActivityRepository,
    private readonly registry: ActivityRegistry,
    private readonly events: EventsQueriesService,
    private readonly contacts: ContactDirectory,
  ) {}

  /**
   * `total` on the first page (none on later ones, as every cursor list). By type alone it is the
   * rollup's sum, exact (its triggers commit with the events) and as cheap at 5M events as at 5.
   * The rollup has no contact or campaign: with those filters the events are counted, through
   * the indexes that lead with them (`events_project_contact_name_created_idx`,
   * `events_project_campaign_created_idx`), so the count reads one contact's or campaign's events.
   */
  async feed(projectId: string, query: ListActivityQuery): Promise<CursorPage<ActivityItem>> {
    // Filters, not lookups: a malformed id matches nothing.
    const names = this.typeFilter(query.types);
    const none = { data: [], cursor: null, hasMore: false, total: 0 };
    if (query.contactId !== undefined && !isContactId(query.contactId)) return none;
    if (query.campaignId !== undefined && !isUuid(query.campaignId)) return none;
    const byRecord = query.contactId !== undefined || query.campaignId !== undefined;
    const firstPage = query.cursor === undefined || query.cursor === '';
    const [page, rolledUp] = await Promise.all([
      this.events.page(projectId, { names, contactId: query.contactId, campaignId: query.campaignId }, query, toActivityItem, byRecord),
      firstPage && !byRecord ? this.repository.total(projectId, names) : Promise.resolve(null),
    ]);
    const named = await this.withNames(projectId, page.data);
    return rolledUp === null ? { ...page, data: named } : { ...page, data: named, total: rolledUp };
  }

  /** Campaign and template names on email activity, one lookup per kind for the page. */
  private async withNames(projectId: string, items: ActivityItem[]): Promise<ActivityItem[]> {
    const ids = (key: 'campaignId' | 'templateId') => [...new Set(items.map((i) => i[key]).filter((id): id is string => id !== undefined))];
    const [campaigns, templates] = await Promise.all([this.registry.namesOf(projectId, ids('campaignId')), this.registry.templateNamesOf(projectId, ids('templateId'))]);
    return items.map((item) => {
      const campaignName = item.campaignId ? campaigns.get(item.campaignId) : undefined;
      const templateName = item.templateId ? templates.get(item.templateId) : undefined;
      return campaignName === undefined && templateName === undefined ? item : { ...item, ...(campaignName !== undefined && { campaignName }), ...(templateName !== undefined && { templateName }) };
    });
  }

  /** `GET /activity/executions?contactId=`: the contact's workflow executions, newest first. */
  async contactExecutions(projectId: string, contactId: string): Promise<{ data: ContactExecution[] }> {
    if (!isContactId(contactId)) return { data: [] };
    return { data: await this.registry.executionsOf(projectId, contactId, CONTACT_EXECUTIONS_LIMIT) };
  }

  async stats(projectId: string, query: RangeQuery): Promise<ActivityStats> {
    const { from, to } = parseRange(query);
    const rows = await this.repository.totalsByName(projectId, from, to);
    const byName = new Map(rows.map((r) => [r.name, r.total]));
    const stats = Object.fromEntries(Object.entries(METRIC_NAMES).map(([key, name]) => [key, byName.get(name) ?? 0])) as ActivityStats;
    stats.events = rows.filter((r) => activityTypeOf(r.name) === 'event').reduce((sum, r) => sum + r.total, 0);
    return stats;
  }

  async recentCount(projectId: string, query: RecentCountQuery): Promise<{ count: number }> {
    const minutes = parsePositiveInt(query.minutes, 'minutes', RECENT_DEFAULT_MINUTES, RECENT_MAX_MINUTES);
    return { count: await this.events.recentCount(projectId, minutes) };
  }

  async types(projectId: string): Promise<{ types: ActivityType[] }> {
    const present = new Set((await this.repository.presentNames(projectId)).map(activityTypeOf));
    return { types: ACTIVITY_TYPES.filter((t) => present.has(t)) };
  }

  /** Scheduled campaigns and waiting executions, from their modules; each execution's contact as `{id, email}` (null once deleted). */
  async upcoming(projectId: string): Promise<{ campaigns: UpcomingCampaign[]; executions: UpcomingExecutionSchema[] }> {
    const [campaigns, waiting] = await Promise.all([this.registry.upcomingOf('campaigns', projectId), this.registry.upcomingOf('executions', projectId)]);
    const emails = await this.contacts.emailsOf(projectId, [...new Set(waiting.map((x) => x.contactId))]);
    const executions = waiting.map(({ contactId, ...x }) => {
      const email = emails.get(contactId);
      return { id: x.id, workflowId: x.workflowId, workflowName: x.workflowName, contact: email === undefined ? null : { id: contactId, email }, dueAt: x.dueAt };
    });
    return { campaigns, executions };
  }

  /** `types=email.open,event`: unknown names are 400; `event` means every name outside the email lifecycle. */
  private typeFilter(raw: string | undefined): EventPageFilter['names'] {
    if (raw === undefined || raw.trim() === '') return undefined;
    const types = [...new Set(raw.split(',').map((t) => t.trim()).filter(Boolean))];
    const unknown = types.filter((t) => !(ACTIVITY_TYPES as readonly string[]).includes(t));
    if (unknown.length) throw badRequest(`Unknown activity type: ${unknown.join(', ')}`, { details: { allowed: ACTIVITY_TYPES } });
    const emailTypes = types.filter((t) => t !== 'event');
    return { anyOf: emailTypes.length ? emailTypes : undefined, noneOf: types.includes('event') ? [...EMAIL_ACTIVITY_TYPES] : undefined };
  }
}
