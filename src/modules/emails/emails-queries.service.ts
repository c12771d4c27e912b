import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { clampLimit, CursorPage, cursorPage, decodeCursor, PG_TIMESTAMP } from '../../platform/http/pagination';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { EventsQueriesService } from '../events/events-queries.service';
import { EmailDetailResponse, EMAIL_RESPONSE_COLUMNS, EmailResponse, EmailRow, toEmailResponse } from './dto/email.response';
import type { ListEmailsQuery } from './dto/list-emails.query';
import { emailNotFound } from './emails.errors';

/**
 * Reads of a project's emails (`GET /v1/emails`, `GET /v1/emails/:id`). The list is newest
 * first, keyset over (created_at DESC, id ASC): the order of `emails_project_created_idx` and
 * `emails_project_status_created_idx`, so a page reads its rows straight from the index; by
 * contact, `emails_contact_created_idx`; by campaign, `emails_campaign_contact_key`.
 */
@Injectable()
export class EmailsQueriesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsQueriesService,
  ) {}

  async findOne(projectId: string, id: string): Promise<EmailDetailResponse> {
    const [row]: EmailRow[] = await this.dataSource.query(`SELECT ${EMAIL_RESPONSE_COLUMNS} FROM emails e WHERE e.project_id = $1 AND e.id = $2`, [projectId, id]);
    if (!row) throw emailNotFound();
    const events = await this.events.ofEmail(projectId, { id: row.id, contactId: row.contact_id, createdAt: row.created_at });
    return { ...toEmailResponse(row), events };
  }

  /** `total` counts the whole filter on the first page (0 on later pages), as every cursor list. */
  async list(projectId: string, query: ListEmailsQuery): Promise<CursorPage<EmailResponse>> {
    const limit = clampLimit(query.limit);
    const cursor = decodeCursor<{ v: string; id: string }>(query.cursor, (c) => typeof c.v === 'string' && PG_TIMESTAMP.test(c.v) && isUuid(c.id));
    const params: unknown[] = [projectId];
    const filters = ['e.project_id = $1'];
    const filterBy = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      filters.push(`e.${column} = $${params.push(value)}`);
    };
    filterBy('status', query.status);
    filterBy('campaign_id', query.campaignId?.toLowerCase());
    filterBy('contact_id', query.contactId);
    const count = cursor ? Promise.resolve([{ total: 0 }]) : (this.dataSource.query(`SELECT count(*)::int AS total FROM emails e WHERE ${filters.join(' AND ')}`, [...params]) as Promise<Array<{ total: number }>>);
    if (cursor) {
      const [v, id] = [`$${params.push(cursor.v)}::timestamptz`, `$${params.push(cursor.id)}::uuid`];
      filters.push(`e.created_at <= ${v} AND (e.created_at < ${v} OR e.id > ${id})`);
    }
    const rows: Array<EmailRow & { created_key: string }> = await this.dataSource.query(
      `SELECT ${EMAIL_RESPONSE_COLUMNS}, e.created_at::text AS created_key FROM emails e
        WHERE ${filters.join(' AND ')} ORDER BY e.created_at DESC, e.id LIMIT $${params.push(limit + 1)}`,
      params,
    );
    return cursorPage(rows, limit, toEmailResponse, (last) => ({ v: last.created_key, id: last.id }), (await count)[0].total);
  }
}
