import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { raw, sql } from '../../platform/database/sql-fragment';
import type { CampaignEmailMetric, CampaignEmailTotals } from '../activity';
import { EMAIL_ACTIVITIES, EmailActivity, projectCampaignEmailsSql } from '../emails';

/** What `topCampaigns` ranks by → the email activity it counts (a closed list, never caller input). */
const METRIC_ACTIVITY: Record<CampaignEmailMetric, EmailActivity> = { sent: 'sent', opens: 'opened', clicks: 'clicked' };

/**
 * Campaign analytics, a read model over the project's campaign emails (the emails module's row
 * source, `projectCampaignEmailsSql`): campaigns ranked by an activity and each campaign's
 * counters over a range, registered on `ActivityRegistry` by `CampaignsActivity`.
 */
@Injectable()
export class CampaignAnalyticsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Campaigns ranked by how many of their emails (created in the range) were sent, opened or clicked; ties by id. */
  topCampaigns(projectId: string, metric: CampaignEmailMetric, range: { from: Date; to: Date }, limit: number): Promise<Array<{ id: string; value: number }>> {
    const query = sql`SELECT e.campaign_id AS id, count(${raw(`e.${EMAIL_ACTIVITIES[METRIC_ACTIVITY[metric]]}`)})::int AS value
                        FROM ${projectCampaignEmailsSql(projectId, range)}
                       GROUP BY e.campaign_id ORDER BY value DESC, id LIMIT ${limit}`;
    return this.dataSource.query(query.text, query.values);
  }

  /** Per campaign, the counters of its emails created in the range; the most recently active campaigns first. */
  campaignTotals(projectId: string, range: { from: Date; to: Date }, limit: number): Promise<CampaignEmailTotals[]> {
    const query = sql`SELECT e.campaign_id AS id, count(*)::int AS total, count(e.sent_at)::int AS sent, count(e.delivered_at)::int AS delivered,
                             count(e.opened_at)::int AS opened, count(e.clicked_at)::int AS clicked, count(e.bounced_at)::int AS bounced,
                             count(e.complained_at)::int AS complained, count(*) FILTER (WHERE e.status = 'skipped')::int AS skipped,
                             count(*) FILTER (WHERE e.status = 'failed')::int AS failed, count(*) FILTER (WHERE e.status = 'uncertain')::int AS uncertain
                        FROM ${projectCampaignEmailsSql(projectId, range)}
                       GROUP BY e.campaign_id ORDER BY max(e.created_at) DESC, e.campaign_id LIMIT ${limit}`;
    return this.dataSource.query(query.text, query.values);
  }
}
