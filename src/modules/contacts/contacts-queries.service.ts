import { Injectable } from '@nestjs/common';
import { ShortBadRequest } from '../../platform/http/app-error';
import { CursorPage, cursorPage } from '../../platform/http/pagination';
import { ContactsRepository } from './contacts.repository';
import { ContactsService } from './contacts.service';
import { DoubleOptInService } from './consent/double-opt-in.service';
import { ContactResponse, toContactResponse } from './dto/contact.response';
import { fromContactRow } from './contacts.rows';
import type { CreateContactDto } from './dto/create-contact.dto';
import type { ListContactsQuery } from './dto/list-contacts.query';
import { listContactsStatements, searchWordsQuery } from './sql/list-contacts.sql';
import { ContactFieldsService } from './contact-fields.service';
import { TopicsService } from '../topics';

/** The dashboard/API-facing flows of /contacts that shape responses around ContactsService. */
@Injectable()
export class ContactsQueriesService {
  constructor(
    private readonly repository: ContactsRepository,
    private readonly contacts: ContactsService,
    private readonly topics: TopicsService,
    private readonly fields: ContactFieldsService,
    private readonly optIns: DoubleOptInService,
  ) {}

  /** One keyset page of the project's contacts (`sql/list-contacts.sql.ts`); a search reads the string-typed keys first. */
  async list(projectId: string, query: ListContactsQuery): Promise<CursorPage<ContactResponse>> {
    const [topic, stringKeys] = await Promise.all([
      query.topic ? this.topics.rulesOf(projectId, [query.topic], 'topic').then((rules) => rules.get(query.topic!)) : undefined,
      query.search && searchWordsQuery(query.search) ? this.fields.keyTypes(projectId).then((keys) => keys.filter((k) => k.type === 'string').map((k) => k.key)) : [],
    ]);
    const statements = listContactsStatements(projectId, query, topic, stringKeys);
    const { rows, total } = await this.repository.listPage(projectId, statements);
    const { sort, dir } = statements;
    return cursorPage(
      rows,
      statements.limit,
      (row) => toContactResponse(fromContactRow(row)),
      (last) => ({ s: sort, d: dir, v: sort === 'email' ? last.email : last.created_key, id: last.id }),
      total,
    );
  }

  /** POST /contacts: upsert by email, new contacts subscribed unless told otherwise. */
  async create(projectId: string, dto: CreateContactDto): Promise<ContactResponse & { _meta: { isNew: boolean; isUpdate: boolean } }> {
    if (dto.email === undefined || dto.email === null || dto.email === '') throw new ShortBadRequest('email is required');
    const { input, confirm } = await this.optIns.optIn(
      projectId,
      { email: dto.email, data: dto.data, topics: dto.topics, subscribed: dto.subscribed, defaultSubscribed: true, source: 'api' },
      { requested: dto.doubleOptIn },
    );
    const result = await this.contacts.upsert(projectId, input);
    const contact = await this.optIns.requestConfirmation(projectId, result, confirm);
    return { ...toContactResponse(contact), _meta: { isNew: result.isNew, isUpdate: !result.isNew } };
  }

}
