import { Injectable } from '@nestjs/common';
import { clampLimit, CursorPage, cursorPage, decodeCursor, PG_TIMESTAMP } from '../../platform/http/pagination';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { EventsQueriesService } from '../events';
import { EmailDetailResponse, EmailResponse, toEmailResponse } from './dto/email.response';
import { EmailsRepository } from './emails.repository';
import type { ListEmailsQuery } from './dto/list-emails.query';
import { emailNotFound } from './emails.errors';

/**
 * Reads of a project's emails (`GET /v1/emails`, `GET /v1/emails/:id`). The list is newest
 * first, keyset over (created_at DESC, id ASC): the order of `emails_project_created_idx` and
 * `emails_project_status_created_idx`, so a page reads its rows straight from the index; by
 * contact, `emails_contact_created_idx`; by campaign, `emails_campaign_contact_idx`.
 */
@Injectable()
export class EmailsQueriesService {
  constructor(
    private readonly emails: EmailsRepository,
    private readonly events: EventsQueriesService,
  ) {}

  async findOne(projectId: string, id: string): Promise<EmailDetailResponse> {
    const row = await this.emails.findRow(projectId, id);
    if (!row) throw emailNotFound();
    const events = await this.events.ofEmail(projectId, { id: row.id, contactId: row.contact_id, createdAt: row.created_at });
    return { ...toEmailResponse(row), events };
  }

  /** `total` counts the whole filter on the first page (0 on later pages), as every cursor list. */
  async list(projectId: string, query: ListEmailsQuery): Promise<CursorPage<EmailResponse>> {
    const limit = clampLimit(query.limit);
    const cursor = decodeCursor<{ v: string; id: string }>(query.cursor, (c) => typeof c.v === 'string' && PG_TIMESTAMP.test(c.v) && isUuid(c.id));
    const { rows, total } = await this.emails.page(projectId, { status: query.status, campaignId: query.campaignId?.toLowerCase(), contactId: query.contactId }, cursor, limit + 1);
    return cursorPage(rows, limit, toEmailResponse, (last) => ({ v: last.created_key, id: last.id }), total);
  }
}
