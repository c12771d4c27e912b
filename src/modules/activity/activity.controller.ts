import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiCursorPage, ApiJson } from '../../platform/http/openapi-responses';
import type { CursorPage } from '../../platform/http/pagination';
import { CurrentProject, SecretKey } from '../auth';
import { ACTIVITY_TYPES, ActivityType } from './activity.types';
import { ActivityService } from './activity.service';
import { ActivityItem, ActivityStatsSchema, ContactExecutionsSchema, UpcomingSchema } from './dto/activity-item.response';
import { ContactExecutionsQuery, ListActivityQuery, RangeQuery, RecentCountQuery } from './dto/activity.query';
import { ApiErrors } from '../../platform/http/openapi-errors';

@ApiTags('activity')
@Controller('activity')
@SecretKey()
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get()
  @ApiOperation({ summary: 'List the activity feed' })
  @ApiErrors([400, 'An unknown activity type, or a bad range'], 422)
  @ApiCursorPage(ActivityItem, 'Sends, deliveries, opens, clicks, bounces, complaints, inbound mail and events, newest first')
  feed(@CurrentProject() projectId: string, @Query() query: ListActivityQuery): Promise<CursorPage<ActivityItem>> {
    return this.activity.feed(projectId, query);
  }

  @Get('stats')
  @ApiOperation({ summary: 'Count the activity in a range' })
  @ApiErrors([400, 'A range that is not ISO 8601 dates, inverted or too long'], 422)
  @ApiJson(200, ActivityStatsSchema, 'Counts in the range (default: the last 30 days)')
  stats(@CurrentProject() projectId: string, @Query() query: RangeQuery): Promise<ActivityStatsSchema> {
    return this.activity.stats(projectId, query);
  }

  @Get('recent-count')
  @ApiOperation({ summary: 'Count recent activity' })
  @ApiErrors(422)
  @ApiJson(200, { type: 'object', required: ['count'], properties: { count: { type: 'integer', description: 'Events of every kind in the last `minutes` (default 60, at most a week)' } } }, 'Recent activity count')
  recentCount(@CurrentProject() projectId: string, @Query() query: RecentCountQuery): Promise<{ count: number }> {
    return this.activity.recentCount(projectId, query);
  }

  @Get('types')
  @ApiOperation({ summary: 'List the activity types that occurred' })
  @ApiJson(
    200,
    { type: 'object', required: ['types'], properties: { types: { type: 'array', items: { type: 'string', enum: [...ACTIVITY_TYPES] }, description: 'Activity types the project has, usable in `types`' } } },
    'Activity types present',
  )
  types(@CurrentProject() projectId: string): Promise<{ types: ActivityType[] }> {
    return this.activity.types(projectId);
  }

  @Get('executions')
  @ApiOperation({ summary: "List a contact's workflow executions" })
  @ApiErrors(422)
  @ApiJson(200, ContactExecutionsSchema, "The contact's executions, newest first (none for an unknown or another project's contact)")
  executions(@CurrentProject() projectId: string, @Query() query: ContactExecutionsQuery): Promise<ContactExecutionsSchema> {
    return this.activity.contactExecutions(projectId, query.contactId);
  }

  @Get('upcoming')
  @ApiOperation({ summary: 'List upcoming campaigns and waiting executions' })
  @ApiJson(200, UpcomingSchema, 'Scheduled campaigns and waiting executions')
  upcoming(@CurrentProject() projectId: string): Promise<UpcomingSchema> {
    return this.activity.upcoming(projectId);
  }
}
