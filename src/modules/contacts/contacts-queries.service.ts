import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ShortBadRequest } from '../../platform/http/app-error';
import { ContactsService } from './contacts.service';
import { ContactResponse, toContactResponse } from './dto/contact.response';
import type { CreateContactDto } from './dto/create-contact.dto';
import type { ListContactsQuery } from './dto/list-contacts.query';
import { listContacts } from './use-cases/list-contacts';

/** The dashboard/API-facing flows of /contacts that shape responses around ContactsService. */
@Injectable()
export class ContactsQueriesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contacts: ContactsService,
  ) {}

  list(projectId: string, query: ListContactsQuery) {
    return listContacts(this.dataSource, projectId, query);
  }

  /** POST /contacts: upsert by email, new contacts subscribed unless told otherwise. */
  async create(projectId: string, dto: CreateContactDto): Promise<ContactResponse & { _meta: { isNew: boolean; isUpdate: boolean } }> {
    if (dto.email === undefined || dto.email === null || dto.email === '') throw new ShortBadRequest('email is required');
    const result = await this.contacts.upsert(projectId, {
      email: dto.email,
      data: dto.data,
      subscribed: dto.subscribed,
      defaultSubscribed: true,
      source: 'api',
    });
    return { ...toContactResponse(result.contact), _meta: { isNew: result.isNew, isUpdate: !result.isNew } };
  }

}
