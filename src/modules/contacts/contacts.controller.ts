import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Audited, fromParam } from '../audit';
import { CurrentProject, SecretKey } from '../auth';
import { ContactsQueriesService } from './contacts-queries.service';
import { ContactsService } from './contacts.service';
import { DoubleOptInService } from './consent/double-opt-in.service';
import { toContactResponse } from './dto/contact.response';
import { CreateContactDto } from './dto/create-contact.dto';
import { ListContactsQuery } from './dto/list-contacts.query';
import { LookupContactsDto } from './dto/lookup-contacts.dto';
import { UpdateContactDto } from './dto/update-contact.dto';
import { ApiCursorPage, ApiJson, ApiNoContent } from '../../platform/http/openapi-responses';
import { ContactResponse } from './dto/contact.response';
import { ContactExportResponse } from './dto/contact-export.response';
import { ContactExportService } from './personal-data/contact-export.service';
import { ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/openapi-errors';
import { sendStream } from '../../platform/http/stream-response';

const CREATED_CONTACT = { allOf: [{ $ref: getSchemaPath(ContactResponse) }, { type: 'object', properties: { _meta: { type: 'object', properties: { isNew: { type: 'boolean' }, isUpdate: { type: 'boolean' } } } } }] };

@ApiTags('contacts')
@Controller('contacts')
@SecretKey()
export class ContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly queries: ContactsQueriesService,
    private readonly optIns: DoubleOptInService,
    private readonly exports: ContactExportService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List contacts' })
  @ApiErrors(422)
  @ApiCursorPage(ContactResponse, 'Contacts')
  list(@CurrentProject() projectId: string, @Query() query: ListContactsQuery) {
    return this.queries.list(projectId, query);
  }

  /** Upsert by email: 201 when created, 200 when it existed. */
  @Post()
  @ApiOperation({ summary: 'Create or update a contact by email' })
  @ApiErrors(422)
  @ApiJson(201, CREATED_CONTACT, 'Created')
  @ApiJson(200, CREATED_CONTACT, 'Existed: updated (or unchanged)')
  async create(@CurrentProject() projectId: string, @Body() dto: CreateContactDto, @Res({ passthrough: true }) res: Response) {
    const result = await this.queries.create(projectId, dto);
    res.status(result._meta.isNew ? 201 : 200);
    return result;
  }

  @Post('lookup')
  @ApiOperation({ summary: 'Find which addresses are contacts' })
  @ApiErrors(422)
  @HttpCode(200)
  @ApiJson(200, { type: 'object', properties: { found: { type: 'array', items: { type: 'string' }, description: 'Addresses (as sent) that are contacts' }, notFound: { type: 'array', items: { type: 'string' }, description: 'Addresses that are not' } } }, 'Which addresses are contacts')
  lookup(@CurrentProject() projectId: string, @Body() dto: LookupContactsDto) {
    return this.contacts.lookup(projectId, dto.emails);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a contact' })
  @ApiErrors(404)
  @ApiJson(200, ContactResponse, 'The contact')
  async get(@CurrentProject() projectId: string, @Param('id') id: string) {
    return toContactResponse(await this.contacts.getById(projectId, id));
  }

  /** Streamed: the entry is recorded once the contact is found, as the document starts to go out (docs/personal-data.md). */
  @Get(':id/export')
  @ApiOperation({ summary: 'Export everything held about a contact (JSON)' })
  @ApiErrors(404)
  @ApiJson(200, ContactExportResponse, 'The contact, its topics, consent history, events, emails, workflow executions and inbound messages')
  @Audited('contact.exported', { target: { type: 'contact', id: fromParam('id') } })
  async export(@CurrentProject() projectId: string, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const { contact, json } = await this.exports.open(projectId, id);
    sendStream(res, json, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': `attachment; filename="contact-${contact.id}.json"`, 'Cache-Control': 'no-store' });
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update a contact' })
  @ApiErrors(404, 422)
  @ApiJson(200, ContactResponse, 'The updated contact')
  async update(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: UpdateContactDto) {
    const { snoozedUntil, ...rest } = dto;
    return toContactResponse(await this.contacts.patch(projectId, id, { ...rest, snoozedUntil: snoozedUntil === undefined ? undefined : snoozedUntil === null ? null : new Date(snoozedUntil) }));
  }

  @Post(':id/confirmation')
  @ApiOperation({ summary: 'Send the double opt-in confirmation email again' })
  @ApiErrors(404, [409, 'The contact is subscribed without a pending confirmation'], [429, 'A confirmation email left less than 10 minutes ago (RATE_LIMIT_EXCEEDED); wait for Retry-After'])
  @HttpCode(200)
  @ApiJson(200, ContactResponse, 'The contact, confirmation pending (or already confirmed: nothing sent)')
  async resendConfirmation(@CurrentProject() projectId: string, @Param('id') id: string) {
    return toContactResponse(await this.optIns.resendConfirmation(projectId, id));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a contact' })
  @ApiErrors(404)
  @HttpCode(204)
  @ApiNoContent('Deleted')
  async remove(@CurrentProject() projectId: string, @Param('id') id: string): Promise<void> {
    await this.contacts.remove(projectId, id);
  }
}
