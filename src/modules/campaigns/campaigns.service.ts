import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { FieldError } from '../../platform/http/app-error';
import { BillingService } from '../billing/billing.service';
import { DomainsService } from '../domains/domains.service';
import { AudienceEmails } from '../emails/use-cases/insert-audience-emails';
import { liquidProblems } from '../templates/templates.errors';
import {
  campaignFieldInvalid,
  campaignNotFound,
  missingCampaignFields,
  unknownStatusFilter,
  unparseableScheduledFor,
  wrongCampaignStatus,
} from './campaigns.errors';
import { CampaignCounters, CampaignPage, CampaignSendResponse, CampaignStats, countersOf, toCampaignResponse } from './dto/campaign.response';
import type { CreateCampaignDto } from './dto/create-campaign.dto';
import { CAMPAIGN_SORTS, CampaignSort, ListCampaignsQuery, MAX_PAGE_SIZE } from './dto/list-campaigns.query';
import { Campaign, CAMPAIGN_STATUSES, CampaignStatus } from './entities/campaign.entity';
import { CampaignAudience } from './engine/campaign-audience';
import { campaignContent } from './engine/campaign-content';
import { returnedRows } from '../../platform/database/query-results';
import { retryOnConflict } from '../../platform/database/pg-errors';
import { isUuid } from '../../platform/http/parse-uuid.pipe';

const SORT_COLUMNS: Record<CampaignSort, string> = { name: 'lower(k.name)', createdAt: 'k.created_at', updatedAt: 'k.updated_at' };
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
    private readonly audienceEmails: AudienceEmails,
    private readonly billing: BillingService,
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

  async list(projectId: string, query: ListCampaignsQuery): Promise<CampaignPage> {
    if (query.status !== undefined && !(CAMPAIGN_STATUSES as readonly string[]).includes(query.status)) throw unknownStatusFilter(query.status);
    const page = query.page ?? 1;
    const pageSize = Math.min(query.pageSize ?? 20, MAX_PAGE_SIZE);
    const sort: CampaignSort = (CAMPAIGN_SORTS as readonly string[]).includes(query.sort ?? '') ? (query.sort as CampaignSort) : 'createdAt';
    const dir = query.dir?.toLowerCase() === 'asc' ? 'ASC' : 'DESC';
    const qb = this.campaigns.createQueryBuilder('k').where('k.project_id = :projectId', { projectId });
    if (query.status) qb.andWhere('k.status = :status', { status: query.status });
    const search = query.search?.trim();
    if (search) {
      const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(`(k.name ILIKE :pattern OR k.subject ILIKE :pattern OR k.from_address ILIKE :pattern)`, { pattern });
    }
    qb.orderBy(SORT_COLUMNS[sort], dir).addOrderBy('k.id', dir).offset((page - 1) * pageSize).limit(pageSize);
    const [rows, total] = await qb.getManyAndCount();
    return { data: rows.map(toCampaignResponse), page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
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
    await this.findOne(projectId, id);
    await retryOnConflict(() => this.dataSource.transaction(async (em: EntityManager) => {
      const [row] = (await em.query(`SELECT status FROM campaigns WHERE id = $1 AND project_id = $2 FOR UPDATE`, [id, projectId])) as Array<{ status: CampaignStatus }>;
      if (!row) throw campaignNotFound();
      if (row.status === 'SCHEDULED') {
        await em.query(`UPDATE campaigns SET status = 'DRAFT', scheduled_for = NULL, updated_at = now() WHERE id = $1`, [id]);
      } else if (row.status === 'SENDING') {
        await em.query(`UPDATE campaigns SET status = 'CANCELLED', completed_at = now(), updated_at = now() WHERE id = $1`, [id]);
        await this.audienceEmails.cancelQueued(em, id);
      } else {
        throw wrongCampaignStatus('cancel', row.status);
      }
    }));
    return this.findOne(projectId, id);
  }

  /** One copy to `email`: `[Test] ` subject, `X-Test: true`, no contact, counted nowhere. */
  async sendTest(projectId: string, id: string, email: string): Promise<{ success: true; emailId: string }> {
    const campaign = await this.findOne(projectId, id);
    await this.domains.assertSenderAllowed(projectId, campaign.fromAddress);
    const content = campaignContent(campaign, { test: true });
    const emailId = await this.audienceEmails.sendTest(projectId, content, email.trim().toLowerCase(), campaign.fromAddress);
    return { success: true, emailId };
  }

  /** The audience as it would be fixed now: its size and who would be skipped, by reason. */
  private async audienceNow(projectId: string, c: Campaign) {
    const preview = await this.audienceEmails.preview(projectId, c.type, await this.audience.condition(projectId, c));
    return { ...preview, skippedCount: Object.values(preview.skipped).reduce((a, b) => a + (b ?? 0), 0) };
  }

  /** Counters from the campaign row; a DRAFT (or SCHEDULED) shows its audience as it would be fixed now. */
  async stats(projectId: string, id: string): Promise<CampaignStats> {
    const c = await this.findOne(projectId, id);
    if (c.status === 'DRAFT' || c.status === 'SCHEDULED') {
      const now = await this.audienceNow(projectId, c);
      return { ...statsOf({ ...DRAFT_STATE, totalRecipients: now.total, skippedCount: now.skippedCount, skipped: now.skipped as Record<string, number> }), unsubscribedCount: 0 };
    }
    return { ...statsOf(c), unsubscribedCount: await this.audienceEmails.unsubscribedAfterSend(projectId, c.id) };
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

/** decisions.md's stats shape from the counters; rates are fractions of `deliveredCount` (0 when none). */
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

