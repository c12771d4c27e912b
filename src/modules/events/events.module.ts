import { Module } from '@nestjs/common';
import { EventsQueriesService } from './events-queries.service';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';

@Module({
  controllers: [EventsController],
  providers: [EventsService, EventsQueriesService],
  exports: [EventsService],
})
export class EventsModule {}
