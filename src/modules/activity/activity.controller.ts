import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiCursorPage, ApiJson } from '../../platform/http/openapi-responses';
import type { CursorPage } from '../../platform/http/pagination';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { ACTIVITY_TYPES, ActivityType } from './activity.types';
import { ActivityService } from './activity.service';
import { ActivityItem, ActivityStatsSchema, UpcomingSchema } from './dto/activity-item.response';
import { ListActivityQuery, RangeQuery, RecentCountQuery } from './dto/activity.query';

@ApiTags('activity')
@Controller('activity')
@SecretKey()
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get()
  @ApiCursorPage(ActivityItem, 'Sends, deliveries, opens, clicks, bounces, complaints, inbound mail and events, newest first')
  feed(@CurrentProject() projectId: string, @Query() query: ListActivityQuery): Promise<CursorPage<ActivityItem>> {
    return this.activity.feed(projectId, query);
  }

  @Get('stats')
  @ApiJson(200, ActivityStatsSchema, 'Counts in the range (default: the last 30 days)')
  stats(@CurrentProject() projectId: string, @Query() query: RangeQuery): Promise<ActivityStatsSchema> {
    return this.activity.stats(projectId, query);
  }

  @Get('recent-count')
  @ApiJson(200, { type: 'object', required: ['count'], properties: { count: { type: 'integer', description: 'Events of every kind in the last `minutes` (default 60, at most a week)' } } }, 'Recent activity count')
  recentCount(@CurrentProject() projectId: string, @Query() query: RecentCountQuery): Promise<{ count: number }> {
    return this.activity.recentCount(projectId, query);
  }

  @Get('types')
  @ApiJson(
    200,
    { type: 'object', required: ['types'], properties: { types: { type: 'array', items: { type: 'string', enum: [...ACTIVITY_TYPES] }, description: 'Activity types the project has, usable in `types`' } } },
    'Activity types present',
  )
  types(@CurrentProject() projectId: string): Promise<{ types: ActivityType[] }> {
    return this.activity.types(projectId);
  }

  @Get('upcoming')
  @ApiJson(200, UpcomingSchema, 'Scheduled campaigns and waiting executions')
  upcoming(@CurrentProject() projectId: string): Promise<UpcomingSchema> {
    return this.activity.upcoming(projectId);
  }
}
