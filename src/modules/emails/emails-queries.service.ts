import { Injectable } from '@nestjs/common';
import { clampLimit, CursorPage, cursorPage, decodeCursor, PG_TIMESTAMP } from '../../platform/http/pagination';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { EventsQueriesService } from '../events';
import { contentExpiredAt, ProjectsService, retentionOf } from '../projects';
import { EmailContentResponse, toEmailContentResponse } from './dto/email-content.response';
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
    private readonly projects: ProjectsService,
  ) {}

  async findOne(projectId: string, id: string): Promise<EmailDetailResponse> {
    const row = await this.emails.findRow(projectId, id);
    if (!row) throw emailNotFound();
    const [events, contents] = await Promise.all([
      this.events.ofEmail(projectId, { id: row.id, contactId: row.contact_id, createdAt: row.created_at }),
      this.contentsAsKept(projectId, [{ id: row.id, createdAt: new Date(row.created_at) }]),
    ]);
    return { ...toEmailResponse(row), events, ...contents.get(row.id)! };
  }

  /**
   * Per email, its content as kept: null with the instant it expired once past the project's
   * `retention.emailContentDays`, decided here from its creation and the setting, whatever the
   * background pruning has done yet (docs/retention.md).
   */
  async contentsAsKept(projectId: string, emails: Array<{ id: string; createdAt: Date }>): Promise<Map<string, { content: EmailContentResponse | null; contentExpiredAt: string | null }>> {
    const retention = retentionOf(await this.projects.findById(projectId));
    const now = new Date();
    const expired = new Map(emails.map((e) => [e.id, contentExpiredAt(retention, e.createdAt, now)]));
    const kept = emails.filter((e) => expired.get(e.id) === null).map((e) => e.id);
    const rows = new Map((await this.emails.contentsOf(projectId, kept)).map((row) => [row.email_id, toEmailContentResponse(row)]));
    return new Map(emails.map((e) => {
      const at = expired.get(e.id)!;
      return [e.id, at === null ? { content: rows.get(e.id) ?? null, contentExpiredAt: null } : { content: null, contentExpiredAt: at.toISOString() }];
    }));
  }

  /** `total` counts the whole filter on the first page (0 on later pages), as every cursor list. */
  async list(projectId: string, query: ListEmailsQuery): Promise<CursorPage<EmailResponse>> {
    const limit = clampLimit(query.limit);
    const cursor = decodeCursor<{ v: string; id: string }>(query.cursor, (c) => typeof c.v === 'string' && PG_TIMESTAMP.test(c.v) && isUuid(c.id));
    const { rows, total } = await this.emails.page(projectId, { status: query.status, campaignId: query.campaignId?.toLowerCase(), contactId: query.contactId }, cursor, limit + 1);
    return cursorPage(rows, limit, toEmailResponse, (last) => ({ v: last.created_key, id: last.id }), total);
  }
}
