import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentProject, SecretKey } from '../auth/auth.decorators';
import { ContactsQueriesService } from './contacts-queries.service';
import { ContactsService } from './contacts.service';
import { toContactResponse } from './dto/contact.response';
import { CreateContactDto } from './dto/create-contact.dto';
import { ListContactsQuery } from './dto/list-contacts.query';
import { LookupContactsDto } from './dto/lookup-contacts.dto';
import { UpdateContactDto } from './dto/update-contact.dto';

@Controller('contacts')
@SecretKey()
export class ContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly queries: ContactsQueriesService,
  ) {}

  @Get()
  list(@CurrentProject() projectId: string, @Query() query: ListContactsQuery) {
    return this.queries.list(projectId, query);
  }

  /** Upsert by email: 201 when created, 200 when it existed. */
  @Post()
  async create(@CurrentProject() projectId: string, @Body() dto: CreateContactDto, @Res({ passthrough: true }) res: Response) {
    const result = await this.queries.create(projectId, dto);
    res.status(result._meta.isNew ? 201 : 200);
    return result;
  }

  @Post('lookup')
  @HttpCode(200)
  lookup(@CurrentProject() projectId: string, @Body() dto: LookupContactsDto) {
    return this.queries.lookup(projectId, dto.emails);
  }

  @Get(':id')
  async get(@CurrentProject() projectId: string, @Param('id') id: string) {
    return toContactResponse(await this.contacts.getById(projectId, id));
  }

  @Patch(':id')
  async update(@CurrentProject() projectId: string, @Param('id') id: string, @Body() dto: UpdateContactDto) {
    return toContactResponse(await this.contacts.patch(projectId, id, dto));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentProject() projectId: string, @Param('id') id: string): Promise<void> {
    await this.contacts.remove(projectId, id);
  }
}
