import { Injectable, OnModuleInit } from '@nestjs/common';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { ActivityRegistry, UpcomingCampaign } from '../activity';
import { CampaignAnalyticsRepository } from './campaign-analytics.repository';
import { CampaignsRepository } from './campaigns.repository';

/** How many upcoming campaigns `/activity/upcoming` lists (soonest first). */
const UPCOMING_LIMIT = 100;

/** Campaigns' part of activity and analytics: scheduled campaigns as upcoming items, campaign names, and the numbers of their emails. */
@Injectable()
export class CampaignsActivity implements OnModuleInit {
  constructor(
    private readonly activity: ActivityRegistry,
    private readonly repository: CampaignsRepository,
    private readonly analytics: CampaignAnalyticsRepository,
  ) {}

  onModuleInit(): void {
    this.activity.registerUpcoming('campaigns', (projectId) => this.scheduled(projectId));
    this.activity.registerCampaignNames((projectId, ids) => this.names(projectId, ids));
    this.activity.registerCampaignEmails({
      top: (projectId, metric, range, limit) => this.analytics.topCampaigns(projectId, metric, range, limit),
      totals: (projectId, range, limit) => this.analytics.campaignTotals(projectId, range, limit),
    });
  }

  private scheduled(projectId: string): Promise<UpcomingCampaign[]> {
    return this.repository.scheduled(projectId, UPCOMING_LIMIT);
  }

  private async names(projectId: string, ids: string[]): Promise<Map<string, string>> {
    // Ids come from event data: only well-formed ones are looked up, by the primary key.
    const rows = await this.repository.names(projectId, ids.filter(isUuid));
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
