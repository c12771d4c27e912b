import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiJson } from '../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { AnalyticsService } from './analytics.service';
import { CampaignStatsListSchema, TimeseriesSchema, TopCampaignsSchema, TopEventsSchema } from './dto/analytics.response';
import { TimeseriesQuery, TopCampaignsQuery, TopEventsQuery } from './dto/activity.query';

@ApiTags('analytics')
@Controller('analytics')
@SecretKey()
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('timeseries')
  @ApiJson(200, TimeseriesSchema, 'Sends, deliveries, opens, clicks and bounces per hour or day (UTC buckets)')
  timeseries(@CurrentProject() projectId: string, @Query() query: TimeseriesQuery): Promise<TimeseriesSchema> {
    return this.analytics.timeseries(projectId, query);
  }

  @Get('top-campaigns')
  @ApiJson(200, TopCampaignsSchema, 'Campaigns ranked by opens (default), clicks or sent')
  topCampaigns(@CurrentProject() projectId: string, @Query() query: TopCampaignsQuery): Promise<TopCampaignsSchema> {
    return this.analytics.topCampaigns(projectId, query);
  }

  @Get('campaign-stats')
  @ApiJson(200, CampaignStatsListSchema, 'Per-campaign counts and rates over the emails created in the range')
  campaignStats(@CurrentProject() projectId: string, @Query() query: TopEventsQuery): Promise<CampaignStatsListSchema> {
    return this.analytics.campaignStats(projectId, query);
  }

  @Get('top-events')
  @ApiJson(200, TopEventsSchema, 'The most frequent custom event names')
  topEvents(@CurrentProject() projectId: string, @Query() query: TopEventsQuery): Promise<TopEventsSchema> {
    return this.analytics.topEvents(projectId, query);
  }
}
