import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { FieldError } from '../../platform/http/app-error';
import { BillingService } from '../billing';
import { DomainsService } from '../domains';
import { EmailsService, EmailPreviews, PreviewSource, RenderedPreview } from '../emails';
import { CampaignsRepository } from './campaigns.repository';
import {
  campaignFieldInvalid,
  campaignNotFound,
  missingCampaignFields,
  mixedPagination,
  unknownStatusFilter,
  unparseableScheduledFor,
  wrongCampaignStatus,
} from './campaigns.errors';
import { CampaignAudiencePreview, CampaignCounters, CampaignCursorPage, CampaignPage, CampaignSendResponse, CampaignStats, countersOf } from './dto/campaign.response';
import type { CreateCampaignDto } from './dto/create-campaign.dto';
import { ListCampaignsQuery, MAX_PAGE_SIZE } from './dto/list-campaigns.query';
import { CAMPAIGN_SORTS, CampaignSort } from './campaigns.rows';
import { Campaign, CAMPAIGN_STATUSES, CampaignStatus } from './entities/campaign.entity';
import { CampaignAudience } from './engine/campaign-audience';
import { campaignContent } from './engine/campaign-content';
import { AbTests } from './engine/ab-test';
import { LiquidCheck } from '../templates';
import { checkDelivery, isTimezone, wallClock } from './engine/delivery-settings';
import { ReleaseSchedule } from './engine/release-schedule';
import { unwrittenSql } from './engine/release-schedule.sql';
import { type Fragment, sql } from '../../platform/database/sql-fragment';
import { retryOnConflict } from '../../platform/database/pg-errors';
import { isUuid } from '../../platform/http/parse-uuid.pipe';
import { clampLimit, cursorPage, decodeCursor, offsetPage, PG_TIMESTAMP } from '../../platform/http/pagination';
import { CampaignListFilter } from './campaigns.repository';
import { toCampaignResponse } from './dto/campaign.response';

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

interface CampaignsCursor extends Record<string, unknown> {
  s: CampaignSort;
  d: 'asc' | 'desc';
  v: string;
  id: string;
}

const sortOf = (query: ListCampaignsQuery): CampaignSort => ((CAMPAIGN_SORTS as readonly string[]).includes(query.sort ?? '') ? (query.sort as CampaignSort) : 'createdAt');
const dirOf = (query: ListCampaignsQuery): 'asc' | 'desc' => (query.dir?.toLowerCase() === 'asc' ? 'asc' : 'desc');

const blankToNull = (value: string | null | undefined): string | null => (value === undefined || value === null || value.trim() === '' ? null : value.trim());
const rate = (n: number, of: number) => (of > 0 ? n / of : 0);

/** Campaign records and their state machine; sending itself is the engine's (`engine/campaign-engine.ts`). */
@Injectable()
export class CampaignsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly domains: DomainsService,
    private readonly audience: CampaignAudience,
    private readonly repository: CampaignsRepository,
    private readonly billing: BillingService,
    private readonly emails: EmailsService,
    private readonly previews: EmailPreviews,
    private readonly abTests: AbTests,
    private readonly releases: ReleaseSchedule,
    private readonly liquid: LiquidCheck,
  ) {}

  async create(projectId: string, dto: CreateCampaignDto): Promise<Campaign> {
    const fields = await this.checked(projectId, dto);
    return this.repository.insert(projectId, { ...fields, ...DRAFT_STATE });
  }

  /** `PUT`: full replacement, in DRAFT or SCHEDULED only (the status is re-checked in the write). */
  async replace(projectId: string, id: string, dto: CreateCampaignDto): Promise<Campaign> {
    const current = await this.findOne(projectId, id);
    if (!EDITABLE.includes(current.status)) throw wrongCampaignStatus('edit', current.status);
    const fields = await this.checked(projectId, dto);
    if (!(await this.repository.updateIn(projectId, id, EDITABLE, fields as QueryDeepPartialEntity<Campaign>))) throw wrongCampaignStatus('edit', (await this.findOne(projectId, id)).status);
    return this.findOne(projectId, id);
  }

  /**
   * `GET /campaigns`: `limit`/`cursor` (what Plunk's clients send) answer a cursor list, keyset over
   * (sort value, id) with `total` on the first page; otherwise `page`/`pageSize` answer the offset
   * list. Asking for both is 422. Filters, search and sort are the same in both.
   */
  async list(projectId: string, query: ListCampaignsQuery): Promise<CampaignPage | CampaignCursorPage> {
    const byCursor = query.limit !== undefined || query.cursor !== undefined;
    if (byCursor && (query.page !== undefined || query.pageSize !== undefined)) throw mixedPagination(query);
    if (query.status !== undefined && !(CAMPAIGN_STATUSES as readonly string[]).includes(query.status)) throw unknownStatusFilter(query.status);
    const filter: CampaignListFilter = { status: query.status, search: query.search, sort: sortOf(query), dir: dirOf(query) };
    if (!byCursor) {
      const page = query.page ?? 1;
      const pageSize = Math.min(query.pageSize ?? 20, MAX_PAGE_SIZE);
      const [rows, total] = await this.repository.listPage(projectId, filter, (page - 1) * pageSize, pageSize);
      return offsetPage(rows.map(toCampaignResponse), page, pageSize, total);
    }
    // A cursor carries its own sort and direction, so later pages continue the order they started with.
    const limit = clampLimit(query.limit);
    const cursor = decodeCursor<CampaignsCursor>(
      query.cursor,
      (c) =>
        (CAMPAIGN_SORTS as readonly unknown[]).includes(c.s) &&
        (c.d === 'asc' || c.d === 'desc') &&
        typeof c.v === 'string' &&
        (c.s === 'name' || PG_TIMESTAMP.test(c.v)) &&
        typeof c.id === 'string' &&
        isUuid(c.id),
    );
    const sort = cursor?.s ?? filter.sort;
    const dir = cursor?.d ?? filter.dir;
    const { rows, total } = await this.repository.listAfter(projectId, { ...filter, sort, dir }, cursor ? { v: cursor.v, id: cursor.id } : null, limit + 1);
    return cursorPage(rows, limit, (row) => toCampaignResponse(row.entity), (last) => ({ s: sort, d: dir, v: last.value, id: last.entity.id }), total);
  }

  /** The campaign of this project; another project's id is simply not found (a malformed one never gets past the path's pipe). */
  async findOne(projectId: string, id: string): Promise<Campaign> {
    const campaign = await this.repository.findOne(projectId, id);
    if (!campaign) throw campaignNotFound();
    return campaign;
  }

  /** 409 while SCHEDULED or SENDING (the status is re-checked in the delete). */
  async remove(projectId: string, id: string): Promise<void> {
    const campaign = await this.findOne(projectId, id);
    if (!(await this.repository.deleteUnlessActive(projectId, campaign.id))) throw wrongCampaignStatus('delete', (await this.findOne(projectId, id)).status);
  }

  async duplicate(projectId: string, id: string): Promise<Campaign> {
    const c = await this.findOne(projectId, id);
    return this.repository.insert(projectId, {
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
        topicId: c.topicId,
        templateId: c.templateId,
        abTest: c.abTest,
        delivery: c.delivery,
        ...DRAFT_STATE,
      });
  }

  /**
   * From DRAFT (or SCHEDULED, to reschedule). Now (no date, or a date not in the future): SENDING
   * with the audience fixed at this instant; the engine on the workers picks it up. Later:
   * SCHEDULED, due by `scheduled_for` in the database (a restart or lost job cannot lose it).
   */
  async send(projectId: string, id: string, body: { scheduledFor?: unknown; timezone?: unknown; fallbackTimezone?: unknown }): Promise<CampaignSendResponse> {
    const zones = await this.recipientZones(body);
    let when = zones ? null : parseScheduledFor(body.scheduledFor);
    const campaign = await this.findOne(projectId, id);
    if (!EDITABLE.includes(campaign.status)) throw wrongCampaignStatus('send', campaign.status);
    this.abTests.assertSendable(campaign, body.timezone);
    // The sender may have lost its verification since the campaign was saved.
    await this.domains.assertSenderAllowed(projectId, campaign.fromAddress);
    // 402 before anything leaves when the audience as it is now would pass the monthly limit (the batches' own count is the guard that holds).
    const now = await this.audienceNow(projectId, campaign);
    await this.billing.assertAvailable(projectId, 'campaigns', now.total - now.skippedCount);
    if (zones) {
      // SCHEDULED until the first zone's moment among the audience as it is now (the fallback zone's when it is empty).
      const condition = sql`c.project_id = ${projectId} AND (${await this.audience.condition(projectId, campaign)})`;
      when =
        (await this.releases.firstMoment(campaign, { wall: sql`${zones.localScheduledFor}`, fallback: sql`${zones.fallbackTimezone}` }, condition, { unwritten: false })) ??
        (await this.releases.momentIn(zones.localScheduledFor, zones.fallbackTimezone));
    }
    const later = when !== null && when.getTime() > Date.now();
    const rows = await this.repository.markSendingOrScheduled(projectId, campaign.id, when, later, zones);
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
   * `timezone: "recipient"`: `scheduledFor` as a wall-clock time without offset and a
   * `fallbackTimezone` (default UTC) both PostgreSQL and `Intl` know; null for an ordinary send.
   * One 422 item per bad field.
   */
  private async recipientZones(body: { scheduledFor?: unknown; timezone?: unknown; fallbackTimezone?: unknown }) {
    if (body.timezone === undefined || body.timezone === null) {
      if (body.fallbackTimezone !== undefined && body.fallbackTimezone !== null) {
        throw campaignFieldInvalid([{ field: 'fallbackTimezone', message: 'fallbackTimezone applies only with timezone "recipient"', code: 'invalid_combination', received: body.fallbackTimezone }]);
      }
      return null;
    }
    const problems: FieldError[] = [];
    if (body.timezone !== 'recipient') problems.push({ field: 'timezone', message: 'timezone must be "recipient" (or omitted)', code: 'invalid', received: body.timezone });
    const local = wallClock(body.scheduledFor);
    if (body.scheduledFor === undefined || body.scheduledFor === null) problems.push({ field: 'scheduledFor', message: 'scheduledFor is required with timezone "recipient"', code: 'required' });
    else if (!local) {
      problems.push({ field: 'scheduledFor', message: 'scheduledFor must be a wall-clock time without offset, e.g. 2026-12-01T09:00:00', code: 'invalid', received: body.scheduledFor });
    }
    const fallback = body.fallbackTimezone ?? 'UTC';
    if (!isTimezone(fallback) || !(await this.releases.isKnownZone(fallback))) {
      problems.push({ field: 'fallbackTimezone', message: 'fallbackTimezone must be an IANA time zone, e.g. Europe/Paris', code: 'invalid', received: body.fallbackTimezone });
    }
    if (problems.length) throw campaignFieldInvalid(problems);
    return { localScheduledFor: local!, fallbackTimezone: fallback as string };
  }

  /**
   * SCHEDULED → DRAFT (nothing was sent); SENDING → CANCELLED, and its emails not yet handed over never are.
   * Skipping the queued emails locks many of them in id order, the order the pipeline's batched
   * claims lock theirs in, so the two wait for each other instead of deadlocking. Should a conflict
   * still abort the cancel, it wrote nothing, so it runs again (`retryOnConflict`) instead of answering 500.
   */
  async cancel(projectId: string, id: string): Promise<Campaign> {
    const campaign = await this.findOne(projectId, id);
    // Built before the row lock (it may read segments); a campaign the tick made SENDING since builds it under the lock.
    let condition = campaign.status === 'SENDING' ? await this.audience.condition(projectId, campaign) : null;
    const topic = await this.audience.topic(projectId, campaign);
    await retryOnConflict(() => this.dataSource.transaction(async (em: EntityManager) => {
      const row = await this.repository.lockForCancel(projectId, id, em);
      if (!row) throw campaignNotFound();
      if (row.status === 'SCHEDULED') {
        await this.repository.unschedule(projectId, id, em);
      } else if (row.status === 'SENDING') {
        // The part of the fixed audience the engine has not written yet is counted now (the lock keeps
        // the engine from writing more): each contact of it is skipped, as `cancelled` unless it had
        // its own reason, so the stats account for every contact of the fixed audience.
        // An A/B test before its winner also leaves the rest share unwritten (`AbTests.unwrittenParts`);
        // recipient time zones walk the audience once per zone moment: their unwritten rest is the contacts without an email yet.
        condition ??= await this.audience.condition(projectId, campaign);
        const zoned = !!campaign.localScheduledFor;
        const parts: Array<{ condition: Fragment; after: { createdAt: string; id: string } | null }> = (await this.abTests.unwrittenParts(campaign, row, condition, em)) ??
          (row.audience_done
            ? []
            : [
                {
                  condition: zoned ? sql`(${condition}) AND ${unwrittenSql(projectId, campaign.id)}` : condition,
                  after: !zoned && row.cursor_id && row.cursor_created_at ? { createdAt: row.cursor_created_at, id: row.cursor_id } : null,
                },
              ]);
        const unwritten = { total: 0, skipped: {} as Record<string, number> };
        for (const part of parts) {
          const rest = await this.repository.preview(projectId, campaign.type, part.condition, topic, { em, fixedAt: row.fixed_at, after: part.after });
          unwritten.total += rest.total;
          const add = rest.unskipped > 0 ? { ...rest.skipped, cancelled: rest.unskipped } : rest.skipped;
          for (const [reason, n] of Object.entries(add)) unwritten.skipped[reason] = (unwritten.skipped[reason] ?? 0) + (n ?? 0);
        }
        await this.repository.markCancelled(projectId, id, unwritten, em);
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

  /** The campaign's sources as a preview or test copy is made of them (`EmailPreviews`). */
  private source(c: Campaign): PreviewSource {
    return { type: c.type, fromAddress: c.fromAddress, content: campaignContent(c) };
  }

  /** The campaign rendered as one contact of the project, by the pipeline's render (nothing written). */
  async preview(projectId: string, id: string, contactId: string): Promise<RenderedPreview> {
    return this.previews.preview(projectId, this.source(await this.findOne(projectId, id)), contactId);
  }

  /** One test copy to `email`, rendered as `contactId` when given: no contact, counted nowhere (`EmailPreviews.sendTest`). */
  async sendTest(projectId: string, id: string, email: string, contactId?: string | null): Promise<{ success: true; emailId: string }> {
    return this.previews.sendTest(projectId, this.source(await this.findOne(projectId, id)), email, contactId);
  }

  /** The audience as it would be fixed now: its size and who would be skipped, by reason. */
  private async audienceNow(projectId: string, c: Campaign) {
    const preview = await this.repository.preview(projectId, c.type, await this.audience.condition(projectId, c), await this.audience.topic(projectId, c));
    return { ...preview, skippedCount: Object.values(preview.skipped).reduce((a, b) => a + (b ?? 0), 0) };
  }

  /**
   * Counters from the campaign row. A DRAFT or SCHEDULED campaign has no fixed audience yet: every
   * count is 0 (docs/decisions.md#campaigns), whatever its row holds; `audiencePreview` answers "who would get it".
   */
  async stats(projectId: string, id: string): Promise<CampaignStats> {
    const c = await this.findOne(projectId, id);
    const timeline = await this.releases.timeline(c, () => this.audience.condition(projectId, c));
    const release = { waiting: timeline.waiting, nextBatchAt: timeline.nextBatchAt ? new Date(timeline.nextBatchAt).toISOString() : null };
    const uncertainArrivedShare = await this.emails.uncertainArrivedShare();
    if (EDITABLE.includes(c.status)) return { ...statsOf(DRAFT_STATE), uncertainArrivedShare, unsubscribedCount: 0, abTest: null, ...release };
    return { ...statsOf(c), uncertainArrivedShare, unsubscribedCount: await this.repository.unsubscribedAfterSend(projectId, c.id), abTest: await this.abTests.stats(c), ...release };
  }

  /** `POST /campaigns/:id/ab/winner`: the winner picked by hand during the test (`AbTests.pickWinner`); the campaign after it. */
  async pickAbWinner(projectId: string, id: string, variant: string): Promise<Campaign> {
    await this.abTests.pickWinner(await this.findOne(projectId, id), variant);
    return this.findOne(projectId, id);
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
      topicId: dto.topicId ?? null,
    };
    const ab = await this.abTests.settingsOf(dto.abTest);
    const delivery = checkDelivery(dto.delivery);
    const problems: FieldError[] = [...(await this.liquid.problems({ subject: dto.subject, body: dto.body })), ...ab.problems, ...(await this.audience.problems(projectId, spec)), ...delivery.problems];
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
      delivery: delivery.delivery,
      ...spec,
      abTest: ab.settings,
    };
  }
}

type Counters = CampaignCounters & Pick<Campaign, 'complainedCount' | 'skipped'>;

/** The stats shape (docs/decisions.md#campaigns) from the counters; rates are fractions of `deliveredCount` (0 when none). */
function statsOf(c: Counters): Omit<CampaignStats, 'unsubscribedCount' | 'abTest' | 'waiting' | 'nextBatchAt' | 'uncertainArrivedShare'> {
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

