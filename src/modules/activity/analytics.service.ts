import { Injectable } from '@nestjs/common';
import { badRequest } from '../../platform/http/app-error';
import { parsePositiveInt } from '../../platform/http/pagination';
import { parseInterval, parseRange } from './activity-range';
import { ActivityRegistry, CAMPAIGN_EMAIL_METRICS, CampaignEmailMetric } from './activity.registry';
import { ActivityRepository } from './activity.repository';
import { EMAIL_ACTIVITY_TYPES, METRIC_NAMES } from './activity.types';
import type { RangeQuery, TimeseriesQuery, TopCampaignsQuery, TopEventsQuery } from './dto/activity.query';

const TOP_DEFAULT = 10;
const TOP_MAX = 100;
const SERIES = ['sent', 'delivered', 'opened', 'clicked', 'bounced'] as const;

export interface TimeseriesPoint {
  date: string;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
}

export interface CampaignStats {
  id: string;
  name: string | null;
  totalRecipients: number;
  sentCount: number;
  deliveredCount: number;
  openedCount: number;
  clickedCount: number;
  bouncedCount: number;
  complainedCount: number;
  skippedCount: number;
  failedCount: number;
  uncertainCount: number;
  openRate: number;
  clickRate: number;
  bounceRate: number;
}

/** Campaign numbers come from the campaigns module (through the registry, over its emails); every other series from the hourly rollup. */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly repository: ActivityRepository,
    private readonly registry: ActivityRegistry,
  ) {}

  /** Every bucket from `from`'s bucket to `to`'s is present, zeros included; buckets are UTC. */
  async timeseries(projectId: string, query: TimeseriesQuery): Promise<{ interval: string; data: TimeseriesPoint[] }> {
    const range = parseRange(query);
    const interval = parseInterval(query.interval, range);
    const rows = await this.repository.series(projectId, interval, range, Object.fromEntries(SERIES.map((key) => [key, METRIC_NAMES[key]])) as Record<(typeof SERIES)[number], string>);
    return {
      interval,
      data: rows.map((row) => ({
        date: new Date(row.date).toISOString(),
        ...(Object.fromEntries(SERIES.map((key) => [key, Number(row[key] ?? 0)])) as Omit<TimeseriesPoint, 'date'>),
      })),
    };
  }

  async topCampaigns(projectId: string, query: TopCampaignsQuery): Promise<{ data: Array<{ id: string; name: string | null; value: number }> }> {
    const metric = (query.metric ?? 'opens') as CampaignEmailMetric;
    if (!(CAMPAIGN_EMAIL_METRICS as readonly string[]).includes(metric)) throw badRequest('metric must be opens, clicks or sent', { details: { received: query.metric } });
    const range = parseRange(query);
    const limit = parsePositiveInt(query.limit, 'limit', TOP_DEFAULT, TOP_MAX);
    const rows = await this.registry.topCampaigns(projectId, metric, range, limit);
    const names = await this.registry.namesOf(projectId, rows.map((r) => r.id));
    return { data: rows.map((r) => ({ id: r.id, name: names.get(r.id) ?? null, value: r.value })) };
  }

  async campaignStats(projectId: string, query: RangeQuery & { limit?: string }): Promise<{ data: CampaignStats[] }> {
    const limit = parsePositiveInt(query.limit, 'limit', TOP_MAX, TOP_MAX);
    const rows = await this.registry.campaignTotals(projectId, parseRange(query), limit);
    const names = await this.registry.namesOf(projectId, rows.map((r) => r.id));
    const rate = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10000) / 10000);
    return {
      data: rows.map((r) => ({
        id: r.id,
        name: names.get(r.id) ?? null,
        totalRecipients: r.total,
        sentCount: r.sent,
        deliveredCount: r.delivered,
        openedCount: r.opened,
        clickedCount: r.clicked,
        bouncedCount: r.bounced,
        complainedCount: r.complained,
        skippedCount: r.skipped,
        failedCount: r.failed,
        uncertainCount: r.uncertain,
        openRate: rate(r.opened, r.delivered),
        clickRate: rate(r.clicked, r.delivered),
        bounceRate: rate(r.bounced, r.delivered),
      })),
    };
  }

  async topEvents(projectId: string, query: TopEventsQuery): Promise<{ data: Array<{ name: string; count: number }> }> {
    const { from, to } = parseRange(query);
    const limit = parsePositiveInt(query.limit, 'limit', TOP_DEFAULT, TOP_MAX);
    return { data: await this.repository.topNames(projectId, { from, to }, [...EMAIL_ACTIVITY_TYPES], limit) };
  }
}
