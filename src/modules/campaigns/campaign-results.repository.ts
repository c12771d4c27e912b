import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { empty, Fragment, raw, sql } from '../../platform/database/sql-fragment';
import { contactUnsubscribedSinceSql } from '../contacts';
import { campaignEmailsSql } from '../emails';
import { campaignClickEventsSql } from '../events';
import type { RecipientFilter, RecipientStatus, TimelineInterval } from './campaign-results.rows';

/** Counted as `unsubscribedCount` counts: sent, and the contact unsubscribed since. */
const UNSUBSCRIBED = `(e.sent_at IS NOT NULL AND ${contactUnsubscribedSinceSql('e.contact_id', 'e.sent_at')})`;

/** Each filter is the condition of the stats counter of the same name (docs/campaign-results.md). */
const FILTERS: Record<RecipientFilter, string> = {
  sent: 'e.sent_at IS NOT NULL',
  delivered: 'e.delivered_at IS NOT NULL',
  opened: 'e.opened_at IS NOT NULL',
  clicked: 'e.clicked_at IS NOT NULL',
  bounced: 'e.bounced_at IS NOT NULL',
  complained: 'e.complained_at IS NOT NULL',
  unsubscribed: UNSUBSCRIBED,
  skipped: "e.status = 'skipped'",
  failed: "e.status = 'failed'",
  uncertain: "e.status = 'uncertain'",
};

const STATUS = `CASE WHEN e.complained_at IS NOT NULL THEN 'complained' WHEN e.bounced_at IS NOT NULL THEN 'bounced'
  WHEN ${UNSUBSCRIBED} THEN 'unsubscribed' WHEN e.clicked_at IS NOT NULL THEN 'clicked' WHEN e.opened_at IS NOT NULL THEN 'opened'
  WHEN e.delivered_at IS NOT NULL THEN 'delivered' WHEN e.sent_at IS NOT NULL THEN 'sent' ELSE e.status END`;

/** The times a recipient row shows, as the emails table names them. */
const TIMES = ['sent_at', 'delivered_at', 'opened_at', 'clicked_at', 'bounced_at', 'complained_at'] as const;

export type RecipientRow = Record<(typeof TIMES)[number], Date | null> & {
  id: string;
  contact_id: string | null;
  to_address: string;
  status: RecipientStatus;
  skip_reason: string | null;
  open_count: number;
  click_count: number;
};

export interface RecipientsFilter {
  status?: RecipientFilter;
  search?: string;
}

/** LIKE pattern of a literal substring. */
const contains = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Reads of a sent campaign's results: its recipients, clicked links and opens/clicks over time. */
@Injectable()
export class CampaignResultsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private where(filter: RecipientsFilter): Fragment {
    const status = filter.status ? sql` AND ${raw(FILTERS[filter.status])}` : empty;
    const search = filter.search ? sql` AND e.to_address ILIKE ${contains(filter.search)}` : empty;
    return sql`${status}${search}`;
  }

  /**
   * Keyset over (to_address, id), served by `emails_campaign_recipients_idx (campaign_id,
   * to_address, id)`: a page reads `limit` index entries past the cursor, whatever the campaign's size.
   */
  async recipients(projectId: string, campaignId: string, filter: RecipientsFilter, after: { email: string; id: string } | null, limit: number): Promise<{ rows: RecipientRow[]; total: number }> {
    const where = this.where(filter);
    const keyset = after ? sql` AND (e.to_address, e.id) > (${after.email}, ${after.id}::uuid)` : empty;
    const page = sql`SELECT e.id, e.contact_id, e.to_address, ${raw(STATUS)} AS status,
                            CASE WHEN e.status = 'skipped' THEN e.error END AS skip_reason,
                            ${raw(TIMES.map((c) => `e.${c}`).join(', '))}, e.open_count, e.click_count
                       FROM ${campaignEmailsSql(projectId, campaignId)}
                      WHERE true${where}${keyset}
                      ORDER BY e.to_address, e.id LIMIT ${limit}`;
    const rows = (await this.dataSource.query(page.text, page.values)) as RecipientRow[];
    if (after) return { rows, total: 0 };
    const count = sql`SELECT count(*)::int AS n FROM ${campaignEmailsSql(projectId, campaignId)} WHERE true${where}`;
    const [{ n }] = (await this.dataSource.query(count.text, count.values)) as Array<{ n: number }>;
    return { rows, total: n };
  }

  /** Clicked links with their unique (recipients) and total clicks, from the campaign's `email.click` events. */
  links(projectId: string, campaignId: string, limit: number): Promise<Array<{ url: string; unique_clicks: number; total_clicks: number }>> {
    const query = sql`SELECT e.data->>'link' AS url, count(DISTINCT e.data->>'emailId')::int AS unique_clicks, count(*)::int AS total_clicks
                        FROM ${campaignClickEventsSql(projectId, campaignId)}
                       WHERE e.data->>'link' IS NOT NULL
                       GROUP BY 1 ORDER BY unique_clicks DESC, total_clicks DESC, url LIMIT ${limit}`;
    return this.dataSource.query(query.text, query.values);
  }

  /** First opens and first clicks (unique recipients) per UTC bucket, buckets with activity only. */
  timeline(projectId: string, campaignId: string, interval: TimelineInterval): Promise<Array<{ time: Date; opens: number; clicks: number }>> {
    const bucket = (column: string) => raw(`date_trunc('${interval}', ${column} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`);
    const query = sql`SELECT x.time, sum(x.o)::int AS opens, sum(x.c)::int AS clicks FROM (
                        SELECT ${bucket('e.opened_at')} AS time, 1 AS o, 0 AS c FROM ${campaignEmailsSql(projectId, campaignId)} WHERE e.opened_at IS NOT NULL
                        UNION ALL
                        SELECT ${bucket('e.clicked_at')}, 0, 1 FROM ${campaignEmailsSql(projectId, campaignId)} WHERE e.clicked_at IS NOT NULL
                      ) x GROUP BY x.time ORDER BY x.time`;
    return this.dataSource.query(query.text, query.values);
  }
}
