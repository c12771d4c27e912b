import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { ActivityService } from './activity.service';
import { ListActivityQuery, RangeQuery, RecentCountQuery } from './dto/activity.query';

@ApiTags('activity')
@Controller('activity')
@SecretKey()
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get()
  feed(@CurrentProject() projectId: string, @Query() query: ListActivityQuery) {
    return this.activity.feed(projectId, query);
  }

  @Get('stats')
  stats(@CurrentProject() projectId: string, @Query() query: RangeQuery) {
    return this.activity.stats(projectId, query);
  }

  @Get('recent-count')
  recentCount(@CurrentProject() projectId: string, @Query() query: RecentCountQuery) {
    return this.activity.recentCount(projectId, query);
  }

  @Get('types')
  types(@CurrentProject() projectId: string) {
    return this.activity.types(projectId);
  }

  @Get('upcoming')
  upcoming(@CurrentProject() projectId: string) {
    return this.activity.upcoming(projectId);
  }
}
