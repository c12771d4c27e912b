import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { ListEventsQuery } from './dto/list-events.query';
import { EventsQueriesService } from './events-queries.service';

@Controller('events')
@SecretKey()
export class EventsController {
  constructor(private readonly events: EventsQueriesService) {}

  @Get()
  list(@CurrentProject() projectId: string, @Query() query: ListEventsQuery) {
    return this.events.list(projectId, query);
  }

  @Get('stats')
  stats(@CurrentProject() projectId: string) {
    return this.events.stats(projectId);
  }

  @Get('names')
  names(@CurrentProject() projectId: string) {
    return this.events.names(projectId);
  }

  /** Declared before `contact/:contactId` so an event named `contact` still has a usage route. */
  @Get(':eventName/usage')
  usage(@CurrentProject() projectId: string, @Param('eventName') name: string) {
    return this.events.usage(projectId, name);
  }

  @Get('contact/:contactId')
  forContact(@CurrentProject() projectId: string, @Param('contactId') contactId: string, @Query() query: ListEventsQuery) {
    return this.events.forContact(projectId, contactId, query);
  }

  @Delete(':eventName')
  @HttpCode(204)
  async remove(@CurrentProject() projectId: string, @Param('eventName') name: string): Promise<void> {
    await this.events.removeByName(projectId, name);
  }
}
