import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { AnalyticsService } from './analytics.service';
import { TimeseriesQuery, TopCampaignsQuery, TopEventsQuery } from './dto/activity.query';

@ApiTags('analytics')
@Controller('analytics')
@SecretKey()
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('timeseries')
  timeseries(@CurrentProject() projectId: string, @Query() query: TimeseriesQuery) {
    return this.analytics.timeseries(projectId, query);
  }

  @Get('top-campaigns')
  topCampaigns(@CurrentProject() projectId: string, @Query() query: TopCampaignsQuery) {
    return this.analytics.topCampaigns(projectId, query);
  }

  @Get('campaign-stats')
  campaignStats(@CurrentProject() projectId: string, @Query() query: TopEventsQuery) {
    return this.analytics.campaignStats(projectId, query);
  }

  @Get('top-events')
  topEvents(@CurrentProject() projectId: string, @Query() query: TopEventsQuery) {
    return this.analytics.topEvents(projectId, query);
  }
}
