import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { returnedRows } from '../../platform/database/query-results';
import { jsonReferenceCondition, jsonReferenceMatcher } from '../../platform/usage/usage-matchers';
import type { UsageRef, UsageSubject } from '../../platform/usage/usage.registry';
import { empty, Fragment, raw, sql } from '../../platform/database/sql-fragment';
import type { UpcomingCampaign } from '../activity';
import { contactUnsubscribedSinceSql } from '../contacts';
import type { AudienceCursor, AudienceSkipReason, EmailType } from '../emails';
import { CONTACT_COLUMNS, skipReasonSql, campaignEmailsSql } from '../emails';
import type { TopicRule } from '../topics';
import { SENDER_DOMAIN_MATCHES } from '../domains';
import type { CampaignSort } from './campaigns.rows';
import { Campaign, CampaignStatus } from './entities/campaign.entity';
import { addSkippedSql } from './sql/campaign-counters.sql';

/** What `markSent` answers with, straight from its UPDATE. */
const SENT_RETURNING = 'RETURNING id, name, status, scheduled_for AS "scheduledFor"';

/** The sort value of a row as the keyset compares it; timestamps as PostgreSQL text (full precision). */
const SORT_COLUMNS: Record<CampaignSort, string> = { name: 'lower(k.name)', createdAt: 'k.created_at', updatedAt: 'k.updated_at' };
const CURSOR_VALUES: Record<CampaignSort, string> = { name: 'lower(k.name)', createdAt: 'k.created_at::text', updatedAt: 'k.updated_at::text' };
const CURSOR_CASTS: Record<CampaignSort, string> = { name: '', createdAt: '::timestamptz', updatedAt: '::timestamptz' };

/** What the list filters by (`status`, `search`), sorted by `sort` in `dir`. */
export interface CampaignListFilter {
  status?: string;
  search?: string;
  sort: CampaignSort;
  dir: 'asc' | 'desc';
}

/** A SENDING campaign the engine may take (if no other process holds its lock). */
export interface EngineCampaignRow {
  id: string;
  project_id: string;
}

/** A campaign's fan-out state as the engine reads it under the campaign's lock. */
export interface LeasedCampaign {
  id: string;
  audience_done: boolean;
  content_id: string | null;
  fixed_at: string;
  cursor_created_at: string | null;
  cursor_id: string | null;
}

/**
 * The campaigns module's reads of campaign emails (through the emails module's row sources,
 * `sql/campaign-emails.sql.ts`) and of audiences (through the recipient policy's SQL). Every
 * method takes the project id first.
 */
@Injectable()
export class CampaignsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Campaign) private readonly campaigns: Repository<Campaign>,
  ) {}

  // --- campaign rows -------------------------------------------------------------------------

  findOne(projectId: string, id: string): Promise<Campaign | null> {
    return this.campaigns.findOneBy({ projectId, id });
  }

  /** Inserts a new campaign and returns it as saved. */
  insert(projectId: string, fields: Partial<Campaign>): Promise<Campaign> {
    return this.campaigns.save(this.campaigns.create({ ...fields, projectId }));
  }

  /** Replaces the fields of a campaign still in one of `statuses`; false when it was not (any more). */
  async updateIn(projectId: string, id: string, statuses: CampaignStatus[], fields: QueryDeepPartialEntity<Campaign>): Promise<boolean> {
    const result = await this.campaigns
      .createQueryBuilder()
      .update()
      .set(fields)
      .where('id = :id AND project_id = :projectId AND status IN (:...editable)', { id, projectId, editable: statuses })
      .execute();
    return !!result.affected;
  }

  /** Deletes the campaign unless SCHEDULED or SENDING; false when it was not deleted. */
  async deleteUnlessActive(projectId: string, id: string): Promise<boolean> {
    const result = await this.dataSource.query(`DELETE FROM campaigns WHERE id = $1 AND project_id = $2 AND status NOT IN ('SCHEDULED', 'SENDING') RETURNING id`, [
      id,
      projectId,
    ]);
    return returnedRows(result).length > 0;
  }

  /**
   * From DRAFT or SCHEDULED: SCHEDULED for `when` (`later`), or SENDING now with the audience
   * fixed at this instant. Nothing returned when the status was no longer DRAFT or SCHEDULED.
   */
  async markSendingOrScheduled(
    projectId: string,
    id: string,
    when: Date | null,
    later: boolean,
    zones: { localScheduledFor: string; fallbackTimezone: string } | null = null,
  ): Promise<Array<{ id: string; name: string; status: CampaignStatus; scheduledFor: Date | null }>> {
    // The release schedule starts afresh (recipient time zones when `zones`, docs/delivery-control.md).
    const release = `local_scheduled_for = $4, fallback_timezone = $5, release_moment = NULL, wave_count = 0, wave_started_at = NULL, wave_written = 0, next_batch_at = NULL`;
    return returnedRows(
      await this.dataSource.query(
        later
          ? `UPDATE campaigns SET status = 'SCHEDULED', scheduled_for = $3, ${release}, updated_at = now()
              WHERE id = $1 AND project_id = $2 AND status IN ('DRAFT', 'SCHEDULED') ${SENT_RETURNING}`
          : `UPDATE campaigns SET status = 'SENDING', scheduled_for = coalesce($3, scheduled_for), ${release}, sent_at = now(), audience_fixed_at = now(), updated_at = now()
              WHERE id = $1 AND project_id = $2 AND status IN ('DRAFT', 'SCHEDULED') ${SENT_RETURNING}`,
        [id, projectId, when, zones?.localScheduledFor ?? null, zones?.fallbackTimezone ?? null],
      ),
    );
  }

  /** The campaign's row locked for a cancel (in the caller's transaction), with its fan-out checkpoint. */
  async lockForCancel(
    projectId: string,
    id: string,
    em: EntityManager,
  ): Promise<{ status: CampaignStatus; audience_done: boolean; fixed_at: string; cursor_created_at: string | null; cursor_id: string | null } | undefined> {
    const [row] = (await em.query(
      `SELECT status, audience_done, audience_fixed_at::text AS fixed_at, cursor_created_at::text AS cursor_created_at, cursor_id
         FROM campaigns WHERE id = $1 AND project_id = $2 FOR UPDATE`,
      [id, projectId],
    )) as Array<{ status: CampaignStatus; audience_done: boolean; fixed_at: string; cursor_created_at: string | null; cursor_id: string | null }>;
    return row;
  }

  /** SCHEDULED → DRAFT (the caller holds the row's lock). */
  async unschedule(projectId: string, id: string, em: EntityManager): Promise<void> {
    await em.query(`UPDATE campaigns SET status = 'DRAFT', scheduled_for = NULL, local_scheduled_for = NULL, fallback_timezone = NULL, updated_at = now() WHERE id = $1 AND project_id = $2`, [id, projectId]);
  }

  /** SENDING → CANCELLED, the unwritten part of the audience added as skipped (the caller holds the row's lock). */
  async markCancelled(projectId: string, id: string, unwritten: { total: number; skipped: Record<string, number | undefined> }, em: EntityManager): Promise<void> {
    await em.query(
      `UPDATE campaigns k
          SET status = 'CANCELLED', completed_at = now(), updated_at = now(), audience_done = true,
              total_recipients = k.total_recipients + $2, skipped_count = k.skipped_count + $2, skipped = ${addSkippedSql(3)}
        WHERE k.id = $1 AND k.project_id = $4`,
      [id, unwritten.total, JSON.stringify(unwritten.skipped), projectId],
    );
  }

  // --- the list --------------------------------------------------------------------------------

  /** The project's campaigns matching `status` and `search`. */
  private filtered(projectId: string, filter: CampaignListFilter): SelectQueryBuilder<Campaign> {
    const qb = this.campaigns.createQueryBuilder('k').where('k.project_id = :projectId', { projectId });
    if (filter.status) qb.andWhere('k.status = :status', { status: filter.status });
    const search = filter.search?.trim();
    if (search) {
      const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(`(k.name ILIKE :pattern OR k.subject ILIKE :pattern OR k.from_address ILIKE :pattern)`, { pattern });
    }
    return qb;
  }

  /** One offset page and the total. */
  listPage(projectId: string, filter: CampaignListFilter, offset: number, limit: number): Promise<[Campaign[], number]> {
    const dir = filter.dir === 'asc' ? 'ASC' : 'DESC';
    return this.filtered(projectId, filter).orderBy(SORT_COLUMNS[filter.sort], dir).addOrderBy('k.id', dir).offset(offset).limit(limit).getManyAndCount();
  }

  /**
   * Up to `limit` rows after the keyset `after` (sort value as text, id), each with its sort value
   * as the cursor carries it; with no `after`, the total as well (else 0).
   */
  async listAfter(
    projectId: string,
    filter: CampaignListFilter,
    after: { v: string; id: string } | null,
    limit: number,
  ): Promise<{ rows: Array<{ entity: Campaign; value: string }>; total: number }> {
    const { sort, dir } = filter;
    const order = dir === 'asc' ? 'ASC' : 'DESC';
    const page = this.filtered(projectId, filter);
    const count = after ? Promise.resolve(0) : page.clone().getCount();
    if (after) {
      page.andWhere(`(${SORT_COLUMNS[sort]}, k.id) ${dir === 'asc' ? '>' : '<'} (:v${CURSOR_CASTS[sort]}, :id::uuid)`, { v: after.v, id: after.id });
    }
    const { entities, raw } = await page
      .addSelect(CURSOR_VALUES[sort], 'cursor_value')
      .orderBy(SORT_COLUMNS[sort], order)
      .addOrderBy('k.id', order)
      .limit(limit)
      .getRawAndEntities<{ cursor_value: string }>();
    return { rows: entities.map((entity, i) => ({ entity, value: raw[i].cursor_value })), total: await count };
  }

  // --- the engine ------------------------------------------------------------------------------

  /**
   * One statement per tick (an idle worker runs four a second), across projects: scheduled
   * campaigns whose time has come become SENDING, and every SENDING campaign is returned (the
   * engine then takes each one's lock); those it makes SENDING come from its RETURNING, as the
   * scan of the same statement cannot see them yet.
   */
  async startDueAndFindSendingAcrossProjects(): Promise<EngineCampaignRow[]> {
    return (await this.dataSource.query(
      `WITH due AS (
         UPDATE campaigns SET status = 'SENDING', sent_at = now(), audience_fixed_at = now(), updated_at = now()
          WHERE status = 'SCHEDULED' AND scheduled_for <= now()
         RETURNING id, project_id
       )
       SELECT id, project_id FROM due
       UNION ALL
       SELECT id, project_id FROM campaigns WHERE status = 'SENDING'`,
    )) as EngineCampaignRow[];
  }

  /** A SENDING campaign's fan-out state, read once the engine holds its lock; undefined when it is no longer SENDING. */
  async fanOutState(projectId: string, id: string): Promise<LeasedCampaign | undefined> {
    const [campaign] = (await this.dataSource.query(
      `SELECT id, audience_done, content_id, audience_fixed_at::text AS fixed_at, cursor_created_at::text AS cursor_created_at, cursor_id
         FROM campaigns WHERE id = $1 AND project_id = $2 AND status = 'SENDING'`,
      [id, projectId],
    )) as LeasedCampaign[];
    return campaign;
  }

  /** SENDING → SENT. */
  async markSent(projectId: string, id: string): Promise<void> {
    await this.dataSource.query(`UPDATE campaigns SET status = 'SENT', completed_at = now(), updated_at = now() WHERE id = $1 AND project_id = $2 AND status = 'SENDING'`, [
      id,
      projectId,
    ]);
  }

  /** The campaign's status under its row lock (in the caller's transaction): serialises with cancel. */
  async lockStatus(projectId: string, id: string, em: EntityManager): Promise<CampaignStatus | undefined> {
    const [lock] = (await em.query(`SELECT status FROM campaigns WHERE id = $1 AND project_id = $2 FOR UPDATE`, [id, projectId])) as Array<{ status: CampaignStatus }>;
    return lock?.status;
  }

  /** A batch's checkpoint, totals and skips (in the batch's transaction). */
  async addBatch(
    projectId: string,
    id: string,
    batch: { last: AudienceCursor | null; inserted: number; skippedTotal: number; skipped: Partial<Record<AudienceSkipReason, number>> },
    em: EntityManager,
  ): Promise<void> {
    await em.query(
      `UPDATE campaigns k
          SET cursor_created_at = coalesce($2::timestamptz, k.cursor_created_at), cursor_id = coalesce($3, k.cursor_id), audience_done = $4,
              total_recipients = k.total_recipients + $5, skipped_count = k.skipped_count + $6,
              skipped = ${addSkippedSql(7)},
              updated_at = now()
        WHERE k.id = $1 AND k.project_id = $8`,
      [id, batch.last?.createdAt ?? null, batch.last?.id ?? null, batch.last === null, batch.inserted, batch.skippedTotal, JSON.stringify(batch.skipped), projectId],
    );
  }

  /** The campaign's content id under its row lock (in the caller's transaction). */
  async lockContentId(projectId: string, id: string, em: EntityManager): Promise<string | null> {
    const [row] = (await em.query(`SELECT content_id FROM campaigns WHERE id = $1 AND project_id = $2 FOR UPDATE`, [id, projectId])) as Array<{ content_id: string | null }>;
    return row?.content_id ?? null;
  }

  async setContentId(projectId: string, id: string, contentId: string, em: EntityManager): Promise<void> {
    await em.query(`UPDATE campaigns SET content_id = $2 WHERE id = $1 AND project_id = $3`, [id, contentId, projectId]);
  }

  // --- usage and activity ----------------------------------------------------------------------

  async hasAny(projectId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM campaigns WHERE project_id = $1 LIMIT 1`, [projectId]);
    return rows.length > 0;
  }

  /** The campaigns that reference `subject` (a template, a sender domain, a segment, a field, an event…). */
  referencing(projectId: string, subject: UsageSubject): Promise<UsageRef[]> {
    if (subject.kind === 'template') {
      return this.dataSource.query(`SELECT id::text AS id, name, status FROM campaigns WHERE project_id = $1 AND template_id::text = $2`, [projectId, subject.id]);
    }
    if (subject.kind === 'domain') {
      // Only campaigns that may still send hold their sender's domain (statuses are persisted upper-case).
      return this.dataSource.query(
        `SELECT id::text AS id, name, status FROM campaigns WHERE project_id = $1 AND status NOT IN ('SENT', 'CANCELLED') AND ${SENDER_DOMAIN_MATCHES('from_address', 2)}`,
        [projectId, subject.domain],
      );
    }
    if (subject.kind === 'topic') {
      return this.dataSource.query(`SELECT id::text AS id, name, status FROM campaigns WHERE project_id = $1 AND topic_id::text = $2 LIMIT 1000`, [projectId, subject.id]);
    }
    // A segment audience names its segment; a filtered audience's condition names fields, events and segments.
    const conditions: string[] = [];
    const params: unknown[] = [projectId];
    if (subject.kind === 'segment') {
      params.push(subject.id);
      conditions.push(`segment_id::text = $${params.length}`);
    }
    const matcher = jsonReferenceMatcher(subject);
    if (matcher) {
      const test = jsonReferenceCondition('audience_condition', matcher, params.length + 1);
      conditions.push(test.sql);
      params.push(...test.params);
    }
    if (conditions.length === 0) return Promise.resolve([]);
    return this.dataSource.query(`SELECT id::text AS id, name, status FROM campaigns WHERE project_id = $1 AND (${conditions.join(' OR ')}) LIMIT 1000`, params);
  }

  /** SCHEDULED campaigns, soonest first. */
  scheduled(projectId: string, limit: number): Promise<UpcomingCampaign[]> {
    return this.dataSource.query(
      `SELECT id::text AS id, name, subject, to_char(scheduled_for AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "scheduledFor"
         FROM campaigns WHERE project_id = $1 AND status = 'SCHEDULED' AND scheduled_for IS NOT NULL
        ORDER BY scheduled_for, id LIMIT $2`,
      [projectId, limit],
    );
  }

  /** Names by id (ids must be well-formed uuids). */
  async names(projectId: string, ids: string[]): Promise<Array<{ id: string; name: string }>> {
    return this.dataSource.query(`SELECT id::text AS id, name FROM campaigns WHERE project_id = $1 AND id = ANY($2::uuid[])`, [projectId, ids]);
  }

  // --- campaign emails and audiences -------------------------------------------------------------

  /** The campaign's emails not yet handed over (`queued`) or in hand-over (`sending`), counted up to `bound`: the backlog ahead of the transport. */
  async backlog(projectId: string, campaignId: string, bound: number): Promise<number> {
    const query = sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${campaignEmailsSql(projectId, campaignId)} WHERE e.status IN ('queued', 'sending') LIMIT ${bound}) b`;
    const [row] = (await this.dataSource.query(query.text, query.values)) as Array<{ n: number }>;
    return row.n;
  }

  /**
   * The audience as it would be fixed now: its size and who would be skipped, by reason (one
   * aggregate, nothing written). With `rest`, only the part of an audience fixed at `fixedAt` that
   * lies after `after` (what the engine has not written yet), counted in the caller's transaction.
   */
  async preview(
    projectId: string,
    type: EmailType,
    condition: Fragment,
    topic: TopicRule | null,
    rest?: { em: EntityManager; fixedAt: string; after: AudienceCursor | null },
  ): Promise<{ total: number; skipped: Partial<Record<AudienceSkipReason, number>>; unskipped: number }> {
    const bounds = rest
      ? sql`AND c.created_at <= ${rest.fixedAt}::timestamptz ${rest.after ? sql`AND (c.created_at, c.id) > (${rest.after.createdAt}::timestamptz, ${rest.after.id})` : empty}`
      : empty;
    const query = sql`
      SELECT reason, count(*)::int AS n
        FROM (SELECT ${skipReasonSql(type, CONTACT_COLUMNS, topic)} AS reason FROM contacts c WHERE c.project_id = ${projectId} ${bounds} AND (${condition})) a
       GROUP BY reason`;
    const rows = (await (rest?.em ?? this.dataSource.manager).query(query.text, query.values)) as Array<{ reason: AudienceSkipReason | null; n: number }>;
    const skipped: Partial<Record<AudienceSkipReason, number>> = {};
    let total = 0;
    let unskipped = 0;
    for (const row of rows) {
      total += row.n;
      if (row.reason) skipped[row.reason] = row.n;
      else unskipped = row.n;
    }
    return { total, skipped, unskipped };
  }

  /** How many of the campaign's recipients unsubscribed after their email left (unsubscribes come through contact links, with no email id). */
  async unsubscribedAfterSend(projectId: string, campaignId: string): Promise<number> {
    const query = sql`SELECT count(*)::int AS n FROM ${campaignEmailsSql(projectId, campaignId)}
                       WHERE e.sent_at IS NOT NULL AND ${raw(contactUnsubscribedSinceSql('e.contact_id', 'e.sent_at'))}`;
    const [{ n }] = (await this.dataSource.query(query.text, query.values)) as Array<{ n: number }>;
    return n;
  }
}
