import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { empty, Fragment, raw, sql } from '../../platform/database/sql-fragment';
import type { CampaignEmailMetric, CampaignEmailTotals } from '../activity/activity.registry';
import { contactUnsubscribedSinceSql } from '../contacts/contacts.sql';
import { EMAIL_ACTIVITIES, EmailActivity } from '../emails/contact-emails.sql';
import type { AudienceCursor, AudienceSkipReason } from '../emails/email-queue.facade';
import type { EmailType } from '../emails/entities/email.entity';
import { skipReasonSql } from '../emails/recipient-policy';
import { campaignEmailsSql, projectCampaignEmailsSql } from '../emails/sql/campaign-emails.sql';

/** What `topCampaigns` ranks by → the email activity it counts (a closed list, never caller input). */
const METRIC_ACTIVITY: Record<CampaignEmailMetric, EmailActivity> = { sent: 'sent', opens: 'opened', clicks: 'clicked' };

/**
 * The campaigns module's reads of campaign emails (through the emails module's row sources,
 * `sql/campaign-emails.sql.ts`) and of audiences (through the recipient policy's SQL). Every
 * method takes the project id first.
 */
@Injectable()
export class CampaignsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The campaign's emails not yet handed over (`queued`) or in hand-over (`sending`), counted up to `bound`: the backlog ahead of the transport. */
  async backlog(projectId: string, campaignId: string, bound: number): Promise<number> {
    const query = sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${campaignEmailsSql(projectId, campaignId)} WHERE e.status IN ('queued', 'sending') LIMIT ${bound}) b`;
    const [row] = (await this.dataSource.query(query.text, query.values)) as Array<{ n: number }>;
    return row.n;
  }

  /**
   * The audience as it would be fixed now: its size and who would be skipped, by reason (one
   * aggregate, nothing written). With `rest`, only the part of an audience fixed at `fixedAt` that
   * lies after `after` (what the engine has not written yet), counted in the caller's transaction.
   */
  async preview(
    projectId: string,
    type: EmailType,
    condition: Fragment,
    rest?: { em: EntityManager; fixedAt: string; after: AudienceCursor | null },
  ): Promise<{ total: number; skipped: Partial<Record<AudienceSkipReason, number>>; unskipped: number }> {
    const bounds = rest
      ? sql`AND c.created_at <= ${rest.fixedAt}::timestamptz ${rest.after ? sql`AND (c.created_at, c.id) > (${rest.after.createdAt}::timestamptz, ${rest.after.id})` : empty}`
      : empty;
    const query = sql`
      SELECT reason, count(*)::int AS n
        FROM (SELECT ${skipReasonSql(type)} AS reason FROM contacts c WHERE c.project_id = ${projectId} ${bounds} AND (${condition})) a
       GROUP BY reason`;
    const rows = (await (rest?.em ?? this.dataSource.manager).query(query.text, query.values)) as Array<{ reason: AudienceSkipReason | null; n: number }>;
    const skipped: Partial<Record<AudienceSkipReason, number>> = {};
    let total = 0;
    let unskipped = 0;
    for (const row of rows) {
      total += row.n;
      if (row.reason) skipped[row.reason] = row.n;
      else unskipped = row.n;
    }
    return { total, skipped, unskipped };
  }

  /** How many of the campaign's recipients unsubscribed after their email left (unsubscribes come through contact links, with no email id). */
  async unsubscribedAfterSend(projectId: string, campaignId: string): Promise<number> {
    const query = sql`SELECT count(*)::int AS n FROM ${campaignEmailsSql(projectId, campaignId)}
                       WHERE e.sent_at IS NOT NULL AND ${raw(contactUnsubscribedSinceSql('e.contact_id', 'e.sent_at'))}`;
    const [{ n }] = (await this.dataSource.query(query.text, query.values)) as Array<{ n: number }>;
    return n;
  }

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
