import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { empty, Fragment, raw, sql } from '../../../platform/database/sql-fragment';
import type { EmailType } from '../entities/email.entity';
import { EmailQueue } from '../pipeline/email-queue';
import { notSuppressedSql, respectsSubscription } from '../suppression/suppression.types';
import type { NewEmailContent } from './email-writer';
import { insertContentsAndEmails } from './email-writer';
import { StatementRunner } from '../../../platform/database/statement-runner';
import { contactUnsubscribedSinceSql } from '../../contacts/contacts.sql';

/** Persisted in `emails.error` of `skipped` rows (campaign stats group by it). */
export type AudienceSkipReason = 'unsubscribed' | 'suppressed' | 'invalid_email' | 'render_error' | 'cancelled';

/** Keyset position in an audience: `createdAt` is PostgreSQL's text of the timestamp (full precision). */
export interface AudienceCursor {
  createdAt: string;
  id: string;
}

export interface AudienceBatch {
  projectId: string;
  campaignId: string;
  contentId: string;
  type: EmailType;
  fromAddress: string;
  trackOpens: boolean;
  trackClicks: boolean;
  /** Which contacts (alias `c`) belong to the audience, e.g. the segments engine's condition. */
  condition: Fragment;
  /** Only contacts created up to this instant (PostgreSQL text of a timestamptz): the audience fixed at start. */
  fixedAt: string;
  after: AudienceCursor | null;
  limit: number;
}

export interface AudienceBatchResult {
  /** Rows written now (a row that already existed for the contact is not written again). */
  inserted: number;
  /** Email ids written `queued`, to enqueue after the commit. */
  queuedIds: string[];
  skipped: Partial<Record<AudienceSkipReason, number>>;
  /** The last contact of the batch, null when the audience is exhausted. */
  last: AudienceCursor | null;
}

/** A loose address check in SQL for contacts written before stricter validation (or imported). */
const VALID_ADDRESS = '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$';

/**
 * Email rows for audiences (campaigns), set-based: one `INSERT … SELECT` per keyset batch of
 * contacts, rather than the in-memory recipient list of `/v1/send`. Rows are unique per
 * (campaign, contact) (`emails_campaign_contact_key`), so running a batch twice writes nothing
 * twice. Contacts that get no email are written `skipped` with their reason, so the audience and
 * what was dropped stay visible. The contact's data is copied into `variables` in the same
 * statement: the pipeline then reads a group's contact data with its one load statement.
 */
/** What `topCampaigns` ranks by: `metric` → the emails column it counts (a closed list, never caller input). */
export const CAMPAIGN_EMAIL_METRICS = { sent: 'sent_at', opens: 'opened_at', clicks: 'clicked_at' } as const;
export type CampaignEmailMetric = keyof typeof CAMPAIGN_EMAIL_METRICS;

export interface CampaignEmailTotals {
  id: string;
  total: number;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
  skipped: number;
  failed: number;
  uncertain: number;
}

@Injectable()
export class AudienceEmails {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: StatementRunner,
    private readonly queue: EmailQueue,
  ) {}

  /** The campaign's one content row (its Liquid sources and headers), shared by all its emails. */
  async createContent(content: NewEmailContent, em: EntityManager = this.dataSource.manager): Promise<string> {
    const id = randomUUID();
    await em.query(
      `INSERT INTO email_contents (id, project_id, template_id, subject, body, liquid, text, from_name, reply_to, headers, attachments)
       VALUES ($1, $2, $3, $4, $5, true, NULL, $6, $7, $8::jsonb, '[]'::jsonb)`,
      [id, content.projectId, content.templateId, content.subject, content.body, content.fromName, content.replyTo, JSON.stringify(content.headers ?? {})],
    );
    return id;
  }

  /** One keyset batch of the audience as email rows; run it inside the caller's transaction with its checkpoint. */
  async insertBatch(em: EntityManager, b: AudienceBatch): Promise<AudienceBatchResult> {
    const after = b.after ? sql`AND (c.created_at, c.id) > (${b.after.createdAt}::timestamptz, ${b.after.id})` : empty;
    const reason = skipReasonSql(b.type);
    const query = sql`
      WITH batch AS (
        SELECT c.id, c.email, c.data, c.created_at, ${reason} AS reason
          FROM contacts c
         WHERE c.project_id = ${b.projectId} AND c.created_at <= ${b.fixedAt}::timestamptz ${after} AND (${b.condition})
         ORDER BY c.created_at, c.id
         LIMIT ${b.limit}
      ), ins AS (
        INSERT INTO emails (id, project_id, contact_id, campaign_id, content_id, type, from_address, to_address, variables,
                            status, error, track_opens, track_clicks)
        SELECT gen_random_uuid(), ${b.projectId}::uuid, batch.id, ${b.campaignId}::uuid, ${b.contentId}::uuid, ${b.type}, ${b.fromAddress},
               batch.email, batch.data, CASE WHEN batch.reason IS NULL THEN 'queued' ELSE 'skipped' END, batch.reason,
               ${b.trackOpens}, ${b.trackClicks}
          FROM batch
        ON CONFLICT (campaign_id, contact_id) WHERE campaign_id IS NOT NULL DO NOTHING
        RETURNING id, status, error
      ), last AS (
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
      skipped: AudienceBatchResult['skipped'];
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

  /**
   * The audience as it would be fixed now: its size and who would be skipped, by reason (one
   * aggregate, nothing written). With `rest`, only the part of an audience fixed at `fixedAt` that
   * lies after `after` (what `insertBatch` has not written yet), counted in the caller's transaction.
   */
  async preview(
    projectId: string,
    type: EmailType,
    condition: Fragment,
    rest?: { em: EntityManager; fixedAt: string; after: AudienceCursor | null },
  ): Promise<{ total: number; skipped: Partial<Record<AudienceSkipReason, number>>; unskipped: number }> {
    const bounds = rest
      ? sql`AND c.created_at <= ${rest.fixedAt}::timestamptz ${rest.after ? sql`AND (c.created_at, c.id) > (${rest.after.createdAt}::timestamptz, ${rest.after.id})` : empty}`
      : empty;
    const query = sql`
      SELECT reason, count(*)::int AS n
        FROM (SELECT ${skipReasonSql(type)} AS reason FROM contacts c WHERE c.project_id = ${projectId} ${bounds} AND (${condition})) a
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
    const [{ n }] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM emails e
        WHERE e.campaign_id = $1 AND e.project_id = $2 AND e.sent_at IS NOT NULL AND ${contactUnsubscribedSinceSql('e.contact_id', 'e.sent_at')}`,
      [campaignId, projectId],
    )) as Array<{ n: number }>;
    return n;
  }

  /** Campaigns ranked by how many of their emails (created in the range) were sent, opened or clicked; ties by id. */
  async topCampaigns(projectId: string, metric: CampaignEmailMetric, range: { from: Date; to: Date }, limit: number): Promise<Array<{ id: string; value: number }>> {
    return this.dataSource.query(
      `SELECT campaign_id AS id, count(${CAMPAIGN_EMAIL_METRICS[metric]})::int AS value
       FROM emails WHERE project_id = $1 AND campaign_id IS NOT NULL AND created_at >= $2 AND created_at <= $3
       GROUP BY campaign_id
       ORDER BY value DESC, id LIMIT $4`,
      [projectId, range.from.toISOString(), range.to.toISOString(), limit],
    );
  }

  /** Per campaign, the counters of its emails created in the range; the most recently active campaigns first. */
  async campaignTotals(projectId: string, range: { from: Date; to: Date }, limit: number): Promise<CampaignEmailTotals[]> {
    return this.dataSource.query(
      `SELECT campaign_id AS id, count(*)::int AS total, count(sent_at)::int AS sent, count(delivered_at)::int AS delivered,
              count(opened_at)::int AS opened, count(clicked_at)::int AS clicked, count(bounced_at)::int AS bounced,
              count(complained_at)::int AS complained, count(*) FILTER (WHERE status = 'skipped')::int AS skipped,
              count(*) FILTER (WHERE status = 'failed')::int AS failed, count(*) FILTER (WHERE status = 'uncertain')::int AS uncertain
       FROM emails WHERE project_id = $1 AND campaign_id IS NOT NULL AND created_at >= $2 AND created_at <= $3
       GROUP BY campaign_id ORDER BY max(created_at) DESC, campaign_id LIMIT $4`,
      [projectId, range.from.toISOString(), range.to.toISOString(), limit],
    );
  }

  /** Hands committed rows to the send queue in grouped jobs, behind transactional mail whatever the type; the sweep covers a failed enqueue. */
  enqueue(emailIds: string[], type: EmailType): Promise<void> {
    return this.queue.enqueueOrLeaveForSweep(emailIds, type, { bulk: true });
  }

  /** The campaign's emails not yet handed over (`queued`) or in hand-over (`sending`): the backlog ahead of the transport. */
  async backlog(campaignId: string, bound: number): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM emails WHERE campaign_id = $1 AND status IN ('queued', 'sending') LIMIT $2) b`,
      [campaignId, bound],
    )) as Array<{ n: number }>;
    return row.n;
  }

  /** Emails still `queued` stop here (the claim needs `queued`): nothing more of the campaign leaves. */
  async cancelQueued(em: EntityManager, campaignId: string): Promise<void> {
    const reason: AudienceSkipReason = 'cancelled';
    await em.query(`UPDATE emails SET status = 'skipped', error = $2, updated_at = now() WHERE campaign_id = $1 AND status = 'queued'`, [campaignId, reason]);
  }

  /**
   * One test copy to an address: no contact, no campaign (no statistic), sent TRANSACTIONAL so
   * the address's subscription state cannot skip it. Returns the email id.
   */
  async sendTest(projectId: string, content: NewEmailContent, to: string, fromAddress: string): Promise<string> {
    const [ids] = await this.dataSource.transaction((em) =>
      insertContentsAndEmails(this.statements, em, [
        {
          content,
          emails: { projectId, templateId: content.templateId, campaignId: null, type: 'TRANSACTIONAL', fromAddress, trackOpens: false, trackClicks: false },
          recipients: [{ contactId: null, toAddress: to, toName: null, variables: {} }],
        },
      ]),
    );
    await this.queue.enqueueOrLeaveForSweep(ids, 'TRANSACTIONAL');
    return ids[0];
  }
}

/** Why a contact (alias `c`) of an audience gets no email of this type, or NULL; suppression wins over unsubscription (as `skipReason`). */
function skipReasonSql(type: EmailType): Fragment {
  return respectsSubscription(type)
    ? sql`CASE WHEN c.email !~ ${VALID_ADDRESS} THEN 'invalid_email' WHEN NOT ${raw(notSuppressedSql('c'))} THEN 'suppressed'
               WHEN NOT c.subscribed THEN 'unsubscribed' END`
    : sql`CASE WHEN c.email !~ ${VALID_ADDRESS} THEN 'invalid_email' END`;
}
