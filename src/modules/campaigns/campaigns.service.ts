import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { FieldError } from '../../platform/http/app-error';
import { BillingService } from '../billing/billing.service';
import { DomainsService } from '../domains/domains.service';
import { EmailQueueFacade } from '../emails/email-queue.facade';
import { EmailsService } from '../emails/emails.service';
import { CampaignsRepository } from './campaigns.repository';
import { liquidProblems } from '../templates/templates.errors';
import {
  campaignFieldInvalid,
  campaignNotFound,
  missingCampaignFields,
  unparseableScheduledFor,
  wrongCampaignStatus,
} from './campaigns.errors';
import { CampaignAudiencePreview, CampaignCounters, CampaignCursorPage, CampaignPage, CampaignSendResponse, CampaignStats, countersOf } from './dto/campaign.response';
import type { CreateCampaignDto } from './dto/create-campaign.dto';
import type { ListCampaignsQuery } from './dto/list-campaigns.query';
import { Campaign, CampaignStatus } from './entities/campaign.entity';
import { CampaignAudience } from './engine/campaign-audience';
import { campaignContent } from './engine/campaign-content';
import { addSkippedSql } from './sql/campaign-counters.sql';
import { listCampaigns } from './use-cases/list-campaigns';
import { returnedRows } from '../../platform/database/query-results';
import { retryOnConflict } from '../../platform/database/pg-errors';
import { isUuid } from '../../platform/http/parse-uuid.pipe';

const REQUIRED = ['name', 'subject', 'body', 'from', 'audienceType'] as const;
const EDITABLE: CampaignStatus[] = ['DRAFT', 'SCHEDULED'];
/** A new campaign's state and counters (as the table's defaults, but on the returned entity too). */
const DRAFT_STATE = {
  status: 'DRAFT' as const,
  audienceDone: false,
  totalRecipients: 0,
  sentCount: 0,
  deliveredCount: 0,
  openedCount: 0,
  clickedCount: 0,
  bouncedCount: 0,
  complainedCount: 0,
  failedCount: 0,
  uncertainCount: 0,
  skippedCount: 0,
  skipped: {},
};

const blankToNull = (value: string | null | undefined): string | null => (value === undefined || value === null || value.trim() === '' ? null : value.trim());
const rate = (n: number, of: number) => (of > 0 ? n / of : 0);

/** Campaign records and their state machine; sending itself is the engine's (`engine/campaign-engine.ts`). */
@Injectable()
export class CampaignsService {
  constructor(
    @InjectRepository(Campaign) private readonly campaigns: Repository<Campaign>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly domains: DomainsService,
    private readonly audience: CampaignAudience,
    private readonly repository: CampaignsRepository,
    private readonly billing: BillingService,
    private readonly emails: EmailsService,
    private readonly emailQueue: EmailQueueFacade,
  ) {}

  async create(projectId: string, dto: CreateCampaignDto): Promise<Campaign> {
    const fields = await this.checked(projectId, dto);
    return this.campaigns.save(this.campaigns.create({ projectId, ...fields, ...DRAFT_STATE }));
  }

  /** `PUT`: full replacement, in DRAFT or SCHEDULED only (the status is re-checked in the write). */
  async replace(projectId: string, id: string, dto: CreateCampaignDto): Promise<Campaign> {
    const current = await this.findOne(projectId, id);
    if (!EDITABLE.includes(current.status)) throw wrongCampaignStatus('edit', current.status);
    const fields = await this.checked(projectId, dto);
    const result = await this.campaigns
      .createQueryBuilder()
      .update()
      .set(fields as QueryDeepPartialEntity<Campaign>)
      .where('id = :id AND project_id = :projectId AND status IN (:...editable)', { id, projectId, editable: EDITABLE })
      .execute();
    if (!result.affected) throw wrongCampaignStatus('edit', (await this.findOne(projectId, id)).status);
    return this.findOne(projectId, id);
  }

  /** The offset list (`page`/`pageSize`), or the cursor list (`limit`/`cursor`). */
  list(projectId: string, query: ListCampaignsQuery): Promise<CampaignPage | CampaignCursorPage> {
    return listCampaigns(this.campaigns, projectId, query);
  }

  /** The campaign of this project; another project's id, or a malformed one, is simply not found. */
  async findOne(projectId: string, id: string): Promise<Campaign> {
    if (!isUuid(id)) throw campaignNotFound();
    const campaign = await this.campaigns.findOneBy({ projectId, id });
    if (!campaign) throw campaignNotFound();
    return campaign;
  }

  /** 409 while SCHEDULED or SENDING (the status is re-checked in the delete). */
  async remove(projectId: string, id: string): Promise<void> {
    const campaign = await this.findOne(projectId, id);
    const result = await this.dataSource.query(`DELETE FROM campaigns WHERE id = $1 AND project_id = $2 AND status NOT IN ('SCHEDULED', 'SENDING') RETURNING id`, [
      campaign.id,
      projectId,
    ]);
    if (returnedRows(result).length === 0) throw wrongCampaignStatus('delete', (await this.findOne(projectId, id)).status);
  }

  async duplicate(projectId: string, id: string): Promise<Campaign> {
    const c = await this.findOne(projectId, id);
    return this.campaigns.save(
      this.campaigns.create({
        projectId,
        name: `${c.name} (copy)`.slice(0, 200),
        description: c.description,
        subject: c.subject,
        body: c.body,
        fromAddress: c.fromAddress,
        fromName: c.fromName,
        replyTo: c.replyTo,
        type: c.type,
        audienceType: c.audienceType,
        segmentId: c.segmentId,
        audienceCondition: c.audienceCondition,
        templateId: c.templateId,
        ...DRAFT_STATE,
      }),
    );
  }

  /**
   * From DRAFT (or SCHEDULED, to reschedule). Now (no date, or a date not in the future): SENDING
   * with the audience fixed at this instant; the engine on the workers picks it up. Later:
   * SCHEDULED, due by `scheduled_for` in the database (a restart or lost job cannot lose it).
   */
  async send(projectId: string, id: string, scheduledFor: unknown): Promise<CampaignSendResponse> {
    const when = parseScheduledFor(scheduledFor);
    const campaign = await this.findOne(projectId, id);
    if (!EDITABLE.includes(campaign.status)) throw wrongCampaignStatus('send', campaign.status);
    // The sender may have lost its verification since the campaign was saved.
    await this.domains.assertSenderAllowed(projectId, campaign.fromAddress);
    // 402 before anything leaves when the audience as it is now would pass the monthly limit (the batches' own count is the guard that holds).
    const now = await this.audienceNow(projectId, campaign);
    await this.billing.assertAvailable(projectId, 'campaigns', now.total - now.skippedCount);
    const later = when !== null && when.getTime() > Date.now();
    const rows = returnedRows<{ id: string; name: string; status: CampaignStatus; scheduledFor: Date | null }>(
      await this.dataSource.query(
        later
          ? `UPDATE campaigns SET status = 'SCHEDULED', scheduled_for = $3, updated_at = now()
              WHERE id = $1 AND project_id = $2 AND status IN ('DRAFT', 'SCHEDULED') ${SENT_RETURNING}`
          : `UPDATE campaigns SET status = 'SENDING', scheduled_for = coalesce($3, scheduled_for), sent_at = now(), audience_fixed_at = now(), updated_at = now()
              WHERE id = $1 AND project_id = $2 AND status IN ('DRAFT', 'SCHEDULED') ${SENT_RETURNING}`,
        [campaign.id, projectId, when],
      ),
    );
    // Another request changed the status between the read above and this update.
    if (rows.length === 0) throw wrongCampaignStatus('send', (await this.findOne(projectId, id)).status);
    const [after] = rows;
    const scheduledAt = after.scheduledFor ? new Date(after.scheduledFor).toISOString() : null;
    return {
      success: true,
      data: { id: after.id, name: after.name, status: after.status, scheduledFor: scheduledAt },
      message: later ? `Campaign scheduled for ${scheduledAt}` : 'Campaign is being sent',
    };
  }

  /**
   * SCHEDULED → DRAFT (nothing was sent); SENDING → CANCELLED, and its emails not yet handed over never are.
   * Skipping the queued emails locks many of them while the pipeline's batched transitions lock
   * theirs in another order; PostgreSQL aborts one side of such a deadlock, and an aborted cancel
   * wrote nothing, so it runs again (`retryOnConflict`) instead of answering 500.
   */
  async cancel(projectId: string, id: string): Promise<Campaign> {
    const campaign = await this.findOne(projectId, id);
    // Built before the row lock (it may read segments); a campaign the tick made SENDING since builds it under the lock.
    let condition = campaign.status === 'SENDING' ? await this.audience.condition(projectId, campaign) : null;
    await retryOnConflict(() => this.dataSource.transaction(async (em: EntityManager) => {
      const [row] = (await em.query(
        `SELECT status, audience_done, audience_fixed_at::text AS fixed_at, cursor_created_at::text AS cursor_created_at, cursor_id
           FROM campaigns WHERE id = $1 AND project_id = $2 FOR UPDATE`,
        [id, projectId],
      )) as Array<{ status: CampaignStatus; audience_done: boolean; fixed_at: string; cursor_created_at: string | null; cursor_id: string | null }>;
      if (!row) throw campaignNotFound();
      if (row.status === 'SCHEDULED') {
        await em.query(`UPDATE campaigns SET status = 'DRAFT', scheduled_for = NULL, updated_at = now() WHERE id = $1`, [id]);
      } else if (row.status === 'SENDING') {
        // The part of the fixed audience the engine has not written yet is counted now (the lock keeps
        // the engine from writing more): each contact of it is skipped, as `cancelled` unless it had
        // its own reason, so the stats account for every contact of the fixed audience.
        const unwritten = row.audience_done
          ? { total: 0, skipped: {} }
          : await this.repository
              .preview(projectId, campaign.type, (condition ??= await this.audience.condition(projectId, campaign)), {
                em,
                fixedAt: row.fixed_at,
                after: row.cursor_id && row.cursor_created_at ? { createdAt: row.cursor_created_at, id: row.cursor_id } : null,
              })
              .then((rest) => ({ total: rest.total, skipped: rest.unskipped > 0 ? { ...rest.skipped, cancelled: rest.unskipped } : rest.skipped }));
        await em.query(
          `UPDATE campaigns k
              SET status = 'CANCELLED', completed_at = now(), updated_at = now(), audience_done = true,
                  total_recipients = k.total_recipients + $2, skipped_count = k.skipped_count + $2, skipped = ${addSkippedSql(3)}
            WHERE k.id = $1`,
          [id, unwritten.total, JSON.stringify(unwritten.skipped)],
        );
        // The queued emails become skipped `cancelled`; the counters' trigger adds them.
        await this.emails.cancelQueued(em, projectId, id);
      } else {
        throw wrongCampaignStatus('cancel', row.status);
      }
    }));
    return this.findOne(projectId, id);
  }

  /**
   * The user's explicit at-least-once choice: the campaign's `uncertain` emails (interrupted during
   * their hand-over, so they may already have arrived) are queued and sent again. A CANCELLED
   * campaign sends nothing more (409); DRAFT and SCHEDULED have no emails yet (409).
   */
  async resendUncertain(projectId: string, id: string): Promise<{ success: true; requeued: number }> {
    const campaign = await this.findOne(projectId, id);
    if (campaign.status !== 'SENDING' && campaign.status !== 'SENT') throw wrongCampaignStatus('resend-uncertain', campaign.status);
    return { success: true, requeued: await this.emails.resendUncertain(projectId, campaign.id) };
  }

  /** One copy to `email`: `[Test] ` subject, `X-Test: true`, no contact, counted nowhere. */
  async sendTest(projectId: string, id: string, email: string): Promise<{ success: true; emailId: string }> {
    const campaign = await this.findOne(projectId, id);
    await this.domains.assertSenderAllowed(projectId, campaign.fromAddress);
    const content = campaignContent(campaign, { test: true });
    // TRANSACTIONAL, so the address's subscription state cannot skip it; no contact, no campaign id (no statistic), untracked.
    const [outcome] = await this.emailQueue.queueForRecipients(projectId, { type: 'TRANSACTIONAL', fromAddress: campaign.fromAddress, tracking: false, content }, [
      { contactId: null, email: email.trim().toLowerCase(), name: null, subscribed: true, variables: {} },
    ]);
    if ('skipped' in outcome) throw campaignFieldInvalid([{ field: 'email', code: 'invalid', message: `email cannot be sent to (${outcome.skipped})` }]);
    return { success: true, emailId: outcome.emailId };
  }

  /** The audience as it would be fixed now: its size and who would be skipped, by reason. */
  private async audienceNow(projectId: string, c: Campaign) {
    const preview = await this.repository.preview(projectId, c.type, await this.audience.condition(projectId, c));
    return { ...preview, skippedCount: Object.values(preview.skipped).reduce((a, b) => a + (b ?? 0), 0) };
  }

  /**
   * Counters from the campaign row. A DRAFT or SCHEDULED campaign has no fixed audience yet: every
   * count is 0 (docs/decisions.md#campaigns), whatever its row holds; `audiencePreview` answers "who would get it".
   */
  async stats(projectId: string, id: string): Promise<CampaignStats> {
    const c = await this.findOne(projectId, id);
    if (EDITABLE.includes(c.status)) return { ...statsOf(DRAFT_STATE), unsubscribedCount: 0 };
    return { ...statsOf(c), unsubscribedCount: await this.repository.unsubscribedAfterSend(projectId, c.id) };
  }

  /** The audience as it would be fixed if sending started now: its size and who would be skipped, by reason (nothing written). */
  async audiencePreview(projectId: string, id: string): Promise<CampaignAudiencePreview> {
    const now = await this.audienceNow(projectId, await this.findOne(projectId, id));
    return { totalRecipients: now.total, skippedCount: now.skippedCount, skipped: now.skipped };
  }

  /** Required fields (one 422 naming each missing one), then Liquid, audience, and the sender domain (403). */
  private async checked(projectId: string, dto: CreateCampaignDto) {
    const missing = REQUIRED.filter((f) => {
      const value = dto[f];
      return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    });
    if (missing.length) throw missingCampaignFields([...missing]);
    const spec = {
      audienceType: dto.audienceType!,
      segmentId: dto.audienceType === 'SEGMENT' ? (dto.segmentId ?? null) : null,
      audienceCondition: dto.audienceType === 'FILTERED' ? (dto.audienceCondition ?? null) : null,
    };
    const problems: FieldError[] = [...liquidProblems({ subject: dto.subject, body: dto.body }), ...(await this.audience.problems(projectId, spec))];
    if (problems.length) throw campaignFieldInvalid(problems);
    const from = dto.from!.trim().toLowerCase();
    await this.domains.assertSenderAllowed(projectId, from);
    return {
      name: dto.name!.trim(),
      description: blankToNull(dto.description),
      subject: dto.subject!,
      body: dto.body!,
      fromAddress: from,
      fromName: blankToNull(dto.fromName),
      replyTo: blankToNull(dto.replyTo)?.toLowerCase() ?? null,
      type: dto.type ?? 'MARKETING',
      ...spec,
    };
  }
}

/** What `send` answers with, straight from its UPDATE. */
const SENT_RETURNING = 'RETURNING id, name, status, scheduled_for AS "scheduledFor"';

type Counters = CampaignCounters & Pick<Campaign, 'complainedCount' | 'skipped'>;

/** The stats shape (docs/decisions.md#campaigns) from the counters; rates are fractions of `deliveredCount` (0 when none). */
function statsOf(c: Counters): Omit<CampaignStats, 'unsubscribedCount'> {
  return {
    ...countersOf(c),
    complainedCount: c.complainedCount,
    skipped: c.skipped,
    openRate: rate(c.openedCount, c.deliveredCount),
    clickRate: rate(c.clickedCount, c.deliveredCount),
    bounceRate: rate(c.bouncedCount, c.deliveredCount),
  };
}

/** Any value a date parser accepts (ISO text, RFC 2822, epoch milliseconds); null/undefined: now. */
export function parseScheduledFor(value: unknown): Date | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' && typeof value !== 'number') throw unparseableScheduledFor();
  if (typeof value === 'string' && value.trim() === '') throw unparseableScheduledFor();
  const date = new Date(typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value);
  if (Number.isNaN(date.getTime())) throw unparseableScheduledFor();
  return date;
}

