import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { CurrentProject, SecretKey } from '../auth';
import { ListEventsQuery } from './dto/list-events.query';
import { EventsQueriesService } from './events-queries.service';
import { ApiCursorPage, ApiJson, ApiNoContent } from '../../platform/http/openapi-responses';
import { EventResponse } from './dto/event.response';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/openapi-errors';

@ApiTags('events')
@Controller('events')
@SecretKey()
export class EventsController {
  constructor(private readonly events: EventsQueriesService) {}

  @Get()
  @ApiOperation({ summary: 'List events' })
  @ApiErrors(422)
  @ApiCursorPage(EventResponse, 'Events, newest first')
  list(@CurrentProject() projectId: string, @Query() query: ListEventsQuery) {
    return this.events.list(projectId, query);
  }

  @Get('stats')
  @ApiOperation({ summary: 'Count events' })
  @ApiJson(200, { type: 'object', properties: { total: { type: 'integer' }, last24h: { type: 'integer' }, last7d: { type: 'integer' }, last30d: { type: 'integer' }, uniqueNames: { type: 'integer' }, events: { type: 'array', items: { type: 'object', additionalProperties: true } } } }, 'Event counts')
  stats(@CurrentProject() projectId: string) {
    return this.events.stats(projectId);
  }

  @Get('names')
  @ApiOperation({ summary: 'List event names' })
  @ApiJson(200, { type: 'object', properties: { names: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, count: { type: 'integer' }, lastSeenAt: { type: 'string' } } } } } }, 'Distinct event names with counts')
  names(@CurrentProject() projectId: string) {
    return this.events.names(projectId);
  }

  /** Declared before `contact/:contactId` so an event named `contact` still has a usage route. */
  @Get(':eventName/usage')
  @ApiOperation({ summary: 'List what uses an event name' })
  @ApiErrors([404, 'No event of that name'])
  @ApiJson(200, { type: 'object', description: 'Where it is referenced (segments, campaigns, workflows)', properties: { event: { type: 'string' }, segments: { type: 'array', items: { type: 'object', additionalProperties: true } }, campaigns: { type: 'array', items: { type: 'object', additionalProperties: true } }, workflows: { type: 'array', items: { type: 'object', additionalProperties: true } }, total: { type: 'integer', description: 'References found' } } }, 'Where the event name is used')
  usage(@CurrentProject() projectId: string, @Param('eventName') name: string) {
    return this.events.usage(projectId, name);
  }

  @Get('contact/:contactId')
  @ApiOperation({ summary: 'List the events of a contact' })
  @ApiErrors([404, 'No such contact'], 422)
  @ApiCursorPage(EventResponse, 'Events of the contact, newest first')
  forContact(@CurrentProject() projectId: string, @Param('contactId') contactId: string, @Query() query: ListEventsQuery) {
    return this.events.forContact(projectId, contactId, query);
  }

  @Delete(':eventName')
  @ApiOperation({ summary: 'Delete the events of a name' })
  @ApiErrors([404, 'No event of that name'], [422, 'A system event name, whose history cannot be deleted'])
  @HttpCode(204)
  @ApiNoContent('Events of that name deleted')
  async remove(@CurrentProject() projectId: string, @Param('eventName') name: string): Promise<void> {
    await this.events.removeByName(projectId, name);
  }
}
