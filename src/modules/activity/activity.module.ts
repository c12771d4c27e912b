import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityController } from './activity.controller';
import { ActivityRegistry } from './activity.registry';
import { ActivityRepository } from './activity.repository';
import { ActivityService } from './activity.service';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsService } from './analytics.service';
import { EventCountHourly } from './entities/event-count-hourly.entity';
import { EventsModule } from '../events';

/** Exports `ActivityRegistry` (the campaigns and workflows modules register their upcoming items and campaign names there) and `AnalyticsService` (campaigns serves its per-campaign analytics route). */
@Module({
  imports: [TypeOrmModule.forFeature([EventCountHourly]), EventsModule],
  controllers: [ActivityController, AnalyticsController],
  providers: [ActivityRepository, ActivityService, AnalyticsService, ActivityRegistry],
  exports: [ActivityRegistry, AnalyticsService],
})
export class ActivityModule {}
