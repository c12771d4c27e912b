import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactDirectory } from './contact-directory';
import { EventRecord } from './entities/event.entity';
import { EventsQueriesService } from './events-queries.service';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { EventConsumerCursor } from './outbox/event-cursor.entity';
import { EventConsumerRegistry } from './outbox/event-consumers';
import { EventCursorsStore } from './outbox/event-cursors.store';
import { EventOutbox } from './worker/event-outbox';
import { EventsMetricsConsumer } from './outbox/events-metrics.consumer';
import { EventsRetention } from './events.retention';
import { ProjectsModule } from '../projects';

@Module({
  imports: [TypeOrmModule.forFeature([EventRecord, EventConsumerCursor]), ProjectsModule],
  controllers: [EventsController],
  providers: [EventsRepository, EventsService, EventsQueriesService, EventConsumerRegistry, EventCursorsStore, EventOutbox, EventsMetricsConsumer, ContactDirectory, EventsRetention],
  exports: [EventsService, EventsQueriesService, EventConsumerRegistry, ContactDirectory],
})
export class EventsModule {}
