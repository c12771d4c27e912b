import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { ApiJson } from '../../platform/http/openapi-responses';
import { AnalyticsService, TopEventsQuery } from '../activity';
import { CurrentProject, SecretKey } from '../auth';
import { CampaignStatsListSchema } from './dto/campaign-analytics.response';

/**
 * `GET /analytics/campaign-stats`: the analytics counts per campaign. Served here because its rows
 * are campaign stats (their shape derives from `CampaignStats`); the counting is activity's.
 */
@ApiTags('activity')
@Controller('analytics')
@SecretKey()
export class CampaignAnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('campaign-stats')
  // The operation id it had when activity's AnalyticsController served it: generated clients keep their method name.
  @ApiOperation({ summary: 'Get per-campaign counts and rates', operationId: 'AnalyticsController_campaignStats' })
  @ApiErrors([400, 'A range that is not ISO 8601 dates, inverted or too long, or an unknown interval or metric'], 422)
  @ApiJson(200, CampaignStatsListSchema, 'Per-campaign counts and rates over the emails created in the range')
  campaignStats(@CurrentProject() projectId: string, @Query() query: TopEventsQuery): Promise<CampaignStatsListSchema> {
    return this.analytics.campaignStats(projectId, query);
  }
}
