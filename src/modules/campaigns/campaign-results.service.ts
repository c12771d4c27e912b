import { Injectable } from '@nestjs/common';
import { clampLimit, cursorPage, decodeCursor } from '../../platform/http/pagination';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { CampaignResultsRepository, RecipientRow } from './campaign-results.repository';
import { CampaignsService } from './campaigns.service';
import type { CampaignRecipientsQuery, CampaignTimelineQuery } from './dto/campaign-results.query';
import type { CampaignLinks, CampaignRecipient, CampaignRecipientPage, CampaignTimeline } from './dto/campaign-results.response';

/** Links a campaign's aggregate answers with at most. */
const MAX_LINKS = 500;
/** Timeline buckets answered at most (the latest ones). */
const MAX_BUCKETS = 2000;
const BUCKET_MS = { hour: 3_600_000, day: 86_400_000 } as const;

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

/** What a sent campaign did: per recipient, per link, over time (docs/campaign-results.md). Another project's campaign is 404. */
@Injectable()
export class CampaignResultsService {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly repository: CampaignResultsRepository,
  ) {}

  async recipients(projectId: string, id: string, query: CampaignRecipientsQuery): Promise<CampaignRecipientPage> {
    const limit = clampLimit(query.limit);
    const after = decodeCursor<{ e: string; id: string }>(query.cursor, (c) => typeof c.e === 'string' && typeof c.id === 'string' && isUuid(c.id));
    const campaign = await this.campaigns.findOne(projectId, id);
    const filter = { status: query.status, search: query.search?.trim() || undefined };
    const { rows, total } = await this.repository.recipients(projectId, campaign.id, filter, after ? { email: after.e, id: after.id } : null, limit + 1);
    return cursorPage(rows, limit, toRecipient, (last) => ({ e: last.to_address, id: last.id }), total);
  }

  async links(projectId: string, id: string): Promise<CampaignLinks> {
    const campaign = await this.campaigns.findOne(projectId, id);
    const rows = await this.repository.links(projectId, campaign.id, MAX_LINKS);
    return { data: rows.map((r) => ({ url: r.url, uniqueClicks: r.unique_clicks, totalClicks: r.total_clicks })) };
  }

  /** Buckets from the first to the last with activity, the empty ones between filled with zeros. */
  async timeline(projectId: string, id: string, query: CampaignTimelineQuery): Promise<CampaignTimeline> {
    const interval = query.interval ?? 'hour';
    const campaign = await this.campaigns.findOne(projectId, id);
    const rows = await this.repository.timeline(projectId, campaign.id, interval);
    const data: CampaignTimeline['data'] = [];
    const step = BUCKET_MS[interval];
    for (const row of rows) {
      const time = new Date(row.time).getTime();
      const previous = data.length ? Date.parse(data[data.length - 1].time) : time;
      for (let t = previous + step; t < time; t += step) data.push({ time: new Date(t).toISOString(), opens: 0, clicks: 0 });
      data.push({ time: new Date(time).toISOString(), opens: row.opens, clicks: row.clicks });
      if (data.length > MAX_BUCKETS) data.splice(0, data.length - MAX_BUCKETS);
    }
    return { sentAt: iso(campaign.sentAt), interval, data };
  }
}

function toRecipient(r: RecipientRow): CampaignRecipient {
  return {
    emailId: r.id,
    contactId: r.contact_id,
    email: r.to_address,
    status: r.status,
    skipReason: r.skip_reason,
    sentAt: iso(r.sent_at),
    deliveredAt: iso(r.delivered_at),
    openedAt: iso(r.opened_at),
    clickedAt: iso(r.clicked_at),
    bouncedAt: iso(r.bounced_at),
    complainedAt: iso(r.complained_at),
    openCount: r.open_count,
    clickCount: r.click_count,
  };
}
