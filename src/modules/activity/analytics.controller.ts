import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiJson } from '../../platform/http/openapi-responses';
import { CurrentProject, SecretKey } from '../auth';
import { AnalyticsService } from './analytics.service';
import { TimeseriesSchema, TopCampaignsSchema, TopEventsSchema } from './dto/analytics.response';
import { TimeseriesQuery, TopCampaignsQuery, TopEventsQuery } from './dto/activity.query';
import { ApiErrors } from '../../platform/http/openapi-errors';

@ApiTags('activity')
@Controller('analytics')
@SecretKey()
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('timeseries')
  @ApiOperation({ summary: 'Get email counts over time' })
  @ApiErrors([400, 'A range that is not ISO 8601 dates, inverted or too long, or an unknown interval or metric'], 422)
  @ApiJson(200, TimeseriesSchema, 'Sends, deliveries, opens, clicks and bounces per hour or day (UTC buckets)')
  timeseries(@CurrentProject() projectId: string, @Query() query: TimeseriesQuery): Promise<TimeseriesSchema> {
    return this.analytics.timeseries(projectId, query);
  }

  @Get('top-campaigns')
  @ApiOperation({ summary: 'Rank campaigns' })
  @ApiErrors([400, 'A range that is not ISO 8601 dates, inverted or too long, or an unknown interval or metric'], 422)
  @ApiJson(200, TopCampaignsSchema, 'Campaigns ranked by opens (default), clicks or sent')
  topCampaigns(@CurrentProject() projectId: string, @Query() query: TopCampaignsQuery): Promise<TopCampaignsSchema> {
    return this.analytics.topCampaigns(projectId, query);
  }

  @Get('top-events')
  @ApiOperation({ summary: 'Rank custom events' })
  @ApiErrors([400, 'A range that is not ISO 8601 dates, inverted or too long, or an unknown interval or metric'], 422)
  @ApiJson(200, TopEventsSchema, 'The most frequent custom event names')
  topEvents(@CurrentProject() projectId: string, @Query() query: TopEventsQuery): Promise<TopEventsSchema> {
    return this.analytics.topEvents(projectId, query);
  }
}
