import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { ActivityRegistry, UpcomingCampaign } from '../activity/activity.registry';
import { CampaignsRepository } from './campaigns.repository';

/** How many upcoming campaigns `/activity/upcoming` lists (soonest first). */
const UPCOMING_LIMIT = 100;

/** Campaigns' part of activity and analytics: scheduled campaigns as upcoming items, campaign names, and the numbers of their emails. */
@Injectable()
export class CampaignsActivity implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly activity: ActivityRegistry,
    private readonly repository: CampaignsRepository,
  ) {}

  onModuleInit(): void {
    this.activity.registerUpcoming('campaigns', (projectId) => this.scheduled(projectId));
    this.activity.registerCampaignNames((projectId, ids) => this.names(projectId, ids));
    this.activity.registerCampaignEmails({
      top: (projectId, metric, range, limit) => this.repository.topCampaigns(projectId, metric, range, limit),
      totals: (projectId, range, limit) => this.repository.campaignTotals(projectId, range, limit),
    });
  }

  private scheduled(projectId: string): Promise<UpcomingCampaign[]> {
    return this.dataSource.query(
      `SELECT id::text AS id, name, subject, to_char(scheduled_for AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "scheduledFor"
         FROM campaigns WHERE project_id = $1 AND status = 'SCHEDULED' AND scheduled_for IS NOT NULL
        ORDER BY scheduled_for, id LIMIT $2`,
      [projectId, UPCOMING_LIMIT],
    );
  }

  private async names(projectId: string, ids: string[]): Promise<Map<string, string>> {
    // Ids come from event data: only well-formed ones are looked up, by the primary key.
    const rows: Array<{ id: string; name: string }> = await this.dataSource.query(
      `SELECT id::text AS id, name FROM campaigns WHERE project_id = $1 AND id = ANY($2::uuid[])`,
      [projectId, ids.filter(isUuid)],
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
