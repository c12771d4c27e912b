import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { empty, Fragment, sql } from '../../platform/database/sql-fragment';
import { suppressedAmongSql, suppressionKey } from './sql/suppressions.sql';
import { EMAIL_ROW_COLUMNS, EmailContentRow, EmailRow } from './emails.rows';
import type { EmailType } from './entities/email.entity';
import { CONTACT_COLUMNS, skipReasonSql } from './recipient-policy';
import type { TopicRule } from '../topics';
import { StatementRunner } from '../../platform/database/statement-runner';
import { CONTENT_ROWS_SQL, contentRow, contentsAndEmailsRows, INSERT_CONTENTS_AND_EMAILS_SQL, insertEmailsSql, NewContentAndEmails, NewEmailContent } from './sql/insert-emails.sql';
import { uuidv7 } from '../../platform/database/uuidv7';

/** What an audience batch insert needs (`EmailQueueFacade`'s `AudienceBatch` gives it). */
export interface AudienceInsert {
  campaignId: string;
  contentId: string;
  type: EmailType;
  fromAddress: string;
  /** Which contacts (alias `c`) belong to the audience. */
  condition: Fragment;
  /** Only contacts created up to this instant (PostgreSQL text of a timestamptz). */
  fixedAt: string;
  after: { createdAt: string; id: string } | null;
  limit: number;
  /** The campaign's topic: contacts that are not its members are written skipped `topic`. */
  topic?: TopicRule | null;
  /** An A/B test's variants: each contact's email gets the content and letter at `index` (0-based SQL over `c`) instead of `contentId`. */
  variants?: AudienceVariants;
}

export interface AudienceVariants {
  index: Fragment;
  contentIds: string[];
  letters: string[];
}

export interface AudienceInsertResult {
  inserted: number;
  queuedIds: string[];
  /** Rows written `skipped`, by reason. */
  skipped: Record<string, number>;
  last: { createdAt: string; id: string } | null;
}

export interface EmailListFilter {
  status?: string;
  campaignId?: string;
  contactId?: string;
}

/** The audience's contacts (alias `c`) past the batch's cursor. */
const audienceAfterCursor = (projectId: string, b: Pick<AudienceInsert, 'after' | 'fixedAt' | 'condition'>): Fragment => {
  const after = b.after ? sql`AND (c.created_at, c.id) > (${b.after.createdAt}::timestamptz, ${b.after.id})` : empty;
  return sql`c.project_id = ${projectId} AND c.created_at <= ${b.fixedAt}::timestamptz ${after} AND (${b.condition})`;
};

/**
 * Reads of the `emails` table and its inserts: content rows, the emails of recipients in hand
 * (statements of `sql/insert-emails.sql.ts`) and the audience batch. Status changes are
 * `EmailStatusStore`'s.
 */
@Injectable()
export class EmailsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: StatementRunner,
  ) {}

  /** One content row alone (a campaign's, shared by all its emails); returns its id. */
  async insertContent(em: EntityManager, content: NewEmailContent): Promise<string> {
    const id = uuidv7();
    await this.statements.run(CONTENT_ROWS_SQL, [JSON.stringify([contentRow(id, content)])], em);
    return id;
  }

  /**
   * Every content row and every email row of these requests (one, or send requests sharing a
   * transaction) in one statement. Ids are made here; returns per request its email ids in
   * recipient order (a request without recipients writes nothing and gets `[]`).
   */
  async insertContentsAndEmails(em: EntityManager, requests: NewContentAndEmails[]): Promise<string[][]> {
    const { ids, contents, emails } = contentsAndEmailsRows(requests);
    if (emails.length === 0) return ids;
    await this.statements.run(INSERT_CONTENTS_AND_EMAILS_SQL, [JSON.stringify(contents), JSON.stringify(emails)], em);
    return ids;
  }

  /** One email of the project as the API shows it, or undefined. */
  async findRow(projectId: string, id: string): Promise<EmailRow | undefined> {
    const [row]: EmailRow[] = await this.dataSource.query(`SELECT ${EMAIL_ROW_COLUMNS} FROM emails e WHERE e.project_id = $1 AND e.id = $2`, [projectId, id]);
    return row;
  }

  /**
   * One keyset page (newest first, then id) of the project's emails matching `filter`, `limit`
   * rows at most; `total` counts the whole filter on the first page (no cursor), 0 on later ones.
   */
  async page(
    projectId: string,
    filter: EmailListFilter,
    cursor: { v: string; id: string } | null,
    limit: number,
  ): Promise<{ rows: Array<EmailRow & { created_key: string }>; total: number }> {
    const params: unknown[] = [projectId];
    const filters = ['e.project_id = $1'];
    const filterBy = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      filters.push(`e.${column} = $${params.push(value)}`);
    };
    filterBy('status', filter.status);
    filterBy('campaign_id', filter.campaignId);
    filterBy('contact_id', filter.contactId);
    const count = cursor ? Promise.resolve([{ total: 0 }]) : (this.dataSource.query(`SELECT count(*)::int AS total FROM emails e WHERE ${filters.join(' AND ')}`, [...params]) as Promise<Array<{ total: number }>>);
    if (cursor) {
      const [v, id] = [`$${params.push(cursor.v)}::timestamptz`, `$${params.push(cursor.id)}::uuid`];
      filters.push(`e.created_at <= ${v} AND (e.created_at < ${v} OR e.id > ${id})`);
    }
    // Prepared (as the events' page): its generic plan spares planning a read of every month partition on each page.
    const rows = await this.statements.run<EmailRow & { created_key: string }>(
      `SELECT ${EMAIL_ROW_COLUMNS}, e.created_at::text AS created_key FROM emails e
        WHERE ${filters.join(' AND ')} ORDER BY e.created_at DESC, e.id LIMIT $${params.push(limit)}`,
      params,
    );
    return { rows, total: (await count)[0].total };
  }

  /**
   * What is kept of these emails' content (the project's only): the sources of their content row,
   * its attachments without their bytes, and the values each was rendered with. An email without
   * a content row is absent.
   */
  async contentsOf(projectId: string, emailIds: string[]): Promise<EmailContentRow[]> {
    if (emailIds.length === 0) return [];
    return this.dataSource.query(
      `SELECT e.id AS email_id, c.subject, c.body, c.text, c.from_name, c.reply_to, c.headers, e.variables,
              (SELECT coalesce(jsonb_agg(jsonb_build_object('filename', a->>'filename', 'contentType', a->>'contentType', 'disposition', a->>'disposition',
                                                            'size', (length(a->>'content') * 3) / 4 - (length(a->>'content') - length(rtrim(a->>'content', '='))))), '[]'::jsonb)
                 FROM jsonb_array_elements(c.attachments) a) AS attachments
         FROM emails e JOIN email_contents c ON c.id = e.content_id
        WHERE e.project_id = $1 AND e.id = ANY($2::uuid[])`,
      [projectId, emailIds],
    );
  }

  /**
   * Which of these (project, address) pairs are on their project's suppression list, in one
   * statement (each pair names its project); keys are `suppressionKey(projectId, email)`.
   */
  async suppressedAmong(pairs: Array<{ projectId: string; email: string }>, manager?: EntityManager): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const query = suppressedAmongSql(pairs);
    const rows: Array<{ project_id: string; email: string }> = await (manager ?? this.dataSource.manager).query(query.text, query.values);
    return new Set(rows.map((r) => suppressionKey(r.project_id, r.email)));
  }

  /** Whether any contact of the audience lies past the batch's cursor (one indexed probe, nothing written). */
  async audienceRemains(projectId: string, b: Pick<AudienceInsert, 'after' | 'fixedAt' | 'condition'>, em: EntityManager): Promise<boolean> {
    const query = sql`SELECT EXISTS (SELECT 1 FROM contacts c WHERE ${audienceAfterCursor(projectId, b)}) AS remains`;
    const [row] = (await em.query(query.text, query.values)) as Array<{ remains: boolean }>;
    return row.remains;
  }

  /**
   * One keyset batch of an audience as email rows, set-based (one `INSERT … SELECT`), in the
   * caller's transaction: see `EmailQueueFacade.queueForAudience`.
   */
  async insertAudienceBatch(projectId: string, b: AudienceInsert, track: boolean, em: EntityManager): Promise<AudienceInsertResult> {
    const v = b.variants;
    const content = v ? sql`(${v.contentIds}::uuid[])[batch.v + 1]` : sql`${b.contentId}::uuid`;
    const variant = v ? sql`(${v.letters}::text[])[batch.v + 1]` : sql`NULL::text`;
    const insert = insertEmailsSql(
      sql`
        SELECT uuidv7(), ${projectId}::uuid, batch.id, NULL::uuid, ${b.campaignId}::uuid, NULL::uuid, ${content}, ${b.type}, ${b.fromAddress},
               batch.email, NULL, batch.data, CASE WHEN batch.reason IS NULL THEN 'queued' ELSE 'skipped' END, batch.reason, ${track}, ${track}, NULL, ${variant}
          FROM batch JOIN fresh ON fresh.contact_id = batch.id
        RETURNING id, status, error`,
      true,
    );
    const query = sql`
      WITH batch AS (
        SELECT c.id, c.email, c.data, c.created_at, ${skipReasonSql(b.type, CONTACT_COLUMNS, b.topic)} AS reason, ${v ? v.index : sql`0`} AS v
          FROM contacts c
         WHERE ${audienceAfterCursor(projectId, b)}
         ORDER BY c.created_at, c.id
         LIMIT ${b.limit}
      ), fresh AS (
        -- Each contact at most once per campaign, whatever crashes or retries happen: only a pair new here gets its email.
        INSERT INTO campaign_contacts (campaign_id, contact_id) SELECT ${b.campaignId}::uuid, batch.id FROM batch
        ON CONFLICT DO NOTHING RETURNING contact_id
      ), ins AS (${insert}), last AS (
        SELECT created_at::text AS created_at, id FROM batch ORDER BY batch.created_at DESC, batch.id DESC LIMIT 1
      )
      SELECT (SELECT count(*)::int FROM ins) AS inserted,
             (SELECT coalesce(json_agg(id), '[]'::json) FROM ins WHERE status = 'queued') AS queued_ids,
             (SELECT coalesce(json_object_agg(error, n), '{}'::json) FROM (SELECT error, count(*)::int AS n FROM ins WHERE status = 'skipped' GROUP BY error) s) AS skipped,
             (SELECT created_at FROM last) AS last_created_at, (SELECT id FROM last) AS last_id`;
    // Not a prepared statement: its text varies with the audience condition.
    const [row] = (await em.query(query.text, query.values)) as Array<{
      inserted: number;
      queued_ids: string[];
      skipped: Record<string, number>;
      last_created_at: string | null;
      last_id: string | null;
    }>;
    return {
      inserted: row.inserted,
      queuedIds: row.queued_ids,
      skipped: row.skipped,
      last: row.last_id && row.last_created_at ? { createdAt: row.last_created_at, id: row.last_id } : null,
    };
  }
}
