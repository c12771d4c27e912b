import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ADVISORY_LOCKS } from '../../../platform/database/advisory-locks';
import { SingletonLocks } from '../../../platform/database/singleton-locks';
import { logger } from '../../../platform/logging/logger';
import { AudienceCursor, EmailQueueFacade } from '../../emails';
import { BillingLimitExceeded, BillingService } from '../../billing';
import { CampaignsRepository, EngineCampaignRow } from '../campaigns.repository';
import { Campaign } from '../entities/campaign.entity';
import type { TopicRule } from '../../topics';
import { CampaignAudience } from './campaign-audience';
import { campaignContent } from './campaign-content';
import { AbTests } from './ab-test';
import type { AudienceVariants } from '../../emails';
import { ReleaseSchedule } from './release-schedule';

/** A tick hands over batches for at most this long, then lets the next tick (and other campaigns) run. */
const TICK_BUDGET_MS = 2_000;

type CampaignRow = EngineCampaignRow;

/**
 * The campaign send engine, called by `CampaignTick` (`worker/campaign-tick.ts`) every 250 ms on
 * worker processes: scheduled campaigns whose
 * `scheduled_for` has passed become SENDING (the time is in the database, so a restart or a
 * lost job loses none); each SENDING campaign (one worker at a time, by its `SingletonLocks` lock,
 * which a killed worker's connection takes with it) gets its audience
 * walked in keyset batches while fewer than `CAMPAIGN_BACKLOG` of its emails wait ahead of the
 * transport; each batch is one transaction (rows + checkpoint), its `queued` rows then go to the
 * existing send queue in grouped jobs. When the audience is exhausted and no email is left
 * unfinished, the campaign is SENT.
 */
@Injectable()
export class CampaignEngine {
  private readonly log = logger('campaign-engine');
  /** When each campaign last logged its billing pause. */
  private readonly billingNotices = new Map<string, number>();
  /** Set by the tick for the round under way: true once the process is stopping. */
  private isStopped: () => boolean = () => false;
  /**
   * A campaign's backlog as this process left it when the time budget stopped it, with the
   * checkpoint it had reached: the tick that follows at once reuses it instead of counting up to
   * `CAMPAIGN_MAX_QUEUED` rows again. Only batches add to the backlog and each moves the
   * checkpoint, so an unchanged checkpoint means nothing was added since (emails only left): the
   * carried figure can only over-estimate, as within a tick.
   */
  private readonly carried = new Map<string, { cursorId: string | null; backlog: number }>();

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly emails: EmailQueueFacade,
    private readonly repository: CampaignsRepository,
    private readonly audience: CampaignAudience,
    private readonly billing: BillingService,
    private readonly abTests: AbTests,
    private readonly releases: ReleaseSchedule,
    private readonly locks: SingletonLocks,
  ) {}

  private get stopped(): boolean {
    return this.isStopped();
  }

  /**
   * One tick: due campaigns become SENDING, and each SENDING campaign no other process holds
   * advances. True when a campaign was stopped only by the time budget: the caller goes on at
   * once, not at the next interval. `stopped` tells that the process is stopping.
   */
  async tick(stopped: () => boolean = () => false): Promise<boolean> {
    this.isStopped = stopped;
    let again = false;
    try {
      const active = await this.repository.startDueAndFindSendingAcrossProjects();
      for (const id of this.carried.keys()) if (!active.some((row) => row.id === id)) this.carried.delete(id);
      for (const row of active) {
        if (this.stopped) break;
        const more = await this.advance(row).catch((err: unknown) => {
          this.onAdvanceError(row, err);
          return false;
        });
        again ||= more;
      }
    } catch (err) {
      this.log.warn({ err }, 'campaign tick failed');
    }
    return again && !this.stopped;
  }

  /**
   * Over the project's monthly campaigns limit, the campaign waits where it is (SENDING, nothing
   * more written) and goes on once the limit is raised or the month turns; said once a minute.
   */
  private onAdvanceError(row: CampaignRow, err: unknown): void {
    if (!(err instanceof BillingLimitExceeded)) {
      this.log.error({ err, campaignId: row.id }, 'advancing a campaign failed; the next tick retries');
      return;
    }
    const last = this.billingNotices.get(row.id) ?? 0;
    if (Date.now() - last < 60_000) return;
    this.billingNotices.set(row.id, Date.now());
    this.log.warn({ campaignId: row.id, projectId: row.project_id, details: (err as { details?: unknown }).details }, 'campaign paused at the monthly campaigns limit');
  }

  /**
   * One campaign, under its lock: content once, batches while the backlog allows, then completion.
   * True when the tick's time budget alone stopped it (more of its audience to write, room for it).
   */
  private async advance(row: CampaignRow): Promise<boolean> {
    const [locked] = await this.locks.tryLock(ADVISORY_LOCKS.campaignFanOut, [row.id]);
    if (locked === undefined) return false;
    try {
      const campaign = await this.repository.fanOutState(row.project_id, row.id);
      if (!campaign) return false;
      const entity = await this.repository.findOne(row.project_id, row.id);
      if (!entity) return false;
      // An A/B test decides which part of the audience is walked now and with which content (`ab-test.ts`).
      const ab = await this.abTests.plan(entity, campaign);
      if (ab === 'hold') return false;
      const state = ab?.state ?? campaign;
      let done = state.audience_done;
      if (!done) {
        const contentId = ab?.variants.contentIds[0] ?? campaign.content_id ?? (await this.createContent(entity));
        const base = await this.audience.condition(entity.projectId, entity);
        const condition = ab ? ab.narrow(base) : base;
        const topic = await this.audience.topic(entity.projectId, entity);
        let after: AudienceCursor | null = state.cursor_id && state.cursor_created_at ? { createdAt: state.cursor_created_at, id: state.cursor_id } : null;
        const deadline = Date.now() + TICK_BUDGET_MS;
        // At most `maxQueued` of its emails wait ahead of the transport (`queued`/`sending`): a batch is written only when it fits.
        // Counted once per tick: only this loop adds to the backlog, so adding each batch to the
        // count can only over-estimate it (emails leave as they are sent), never let too many in.
        const { batchSize, maxQueued } = this.config.campaigns;
        const carried = this.carried.get(entity.id);
        this.carried.delete(entity.id);
        let backlog = carried && carried.cursorId === state.cursor_id ? carried.backlog : await this.repository.backlog(entity.projectId, entity.id, maxQueued);
        const fits = () => backlog + batchSize <= Math.max(maxQueued, batchSize);
        while (!done && !this.stopped && Date.now() < deadline && fits()) {
          // Recipient time zones, waves and windows (release-schedule.ts): how many may be written now.
          const allowed = await this.releases.allowance(entity, { condition, fixedAt: campaign.fixed_at });
          if (allowed === 0) break;
          const batch = await this.materialiseBatch(entity, { contentId, condition, topic, fixedAt: campaign.fixed_at, after, variants: ab?.variants, limit: Math.min(batchSize, allowed) });
          if (batch === 'stopped') return false;
          if (batch === 'held') break; // the sender's warm-up cap is reached: the rest waits for the next UTC day
          if (batch.last === null && !batch.restart) done = true;
          after = batch.restart ? null : batch.last;
          backlog += batch.queuedIds.length;
          await this.emails.enqueueGrouped(batch.queuedIds, entity.type, { bulk: true });
        }
        if (!done && !this.stopped && Date.now() >= deadline && fits()) {
          this.carried.set(entity.id, { cursorId: after?.id ?? null, backlog });
          return true;
        }
      }
      if (done && (await this.repository.backlog(entity.projectId, entity.id, 1)) === 0) {
        await this.repository.markSent(entity.projectId, entity.id);
      }
      return false;
    } finally {
      await this.locks.unlock(ADVISORY_LOCKS.campaignFanOut, [row.id]);
    }
  }

  /**
   * One keyset batch of the audience as email rows, and the checkpoint (with the totals and
   * skips) in the same transaction: a crash leaves either both or neither. The single place
   * where a campaign's emails are created.
   */
  private async materialiseBatch(
    c: Campaign,
    b: {
      contentId: string;
      condition: Awaited<ReturnType<CampaignAudience['condition']>>;
      topic: TopicRule | null;
      fixedAt: string;
      after: AudienceCursor | null;
      variants?: AudienceVariants;
      limit: number;
    },
  ) {
    return this.dataSource.transaction(async (em: EntityManager) => {
      // Serialises with cancel: a cancelled campaign writes nothing more.
      if ((await this.repository.lockStatus(c.projectId, c.id, em)) !== 'SENDING') return 'stopped' as const;
      // The sender's warm-up cap is the façade's: a full day holds the rest for the next UTC day.
      const result = await this.emails.queueForAudience(c.projectId, em, {
        campaignId: c.id,
        contentId: b.contentId,
        type: c.type,
        fromAddress: c.fromAddress,
        condition: await this.releases.narrow(c, b.condition),
        wholeCondition: b.condition,
        topic: b.topic,
        fixedAt: b.fixedAt,
        after: b.after,
        limit: b.limit,
        variants: b.variants,
      });
      if (result === 'held') return 'held' as const;
      // The batch's emails count against the monthly limit in this transaction: over it, nothing of the batch is written.
      await this.billing.consume(em, c.projectId, 'campaigns', result.queuedIds.length);
      const skippedTotal = Object.values(result.skipped).reduce((a, n) => a + (n ?? 0), 0);
      await this.repository.addBatch(c.projectId, c.id, { last: result.last, inserted: result.inserted, skippedTotal, skipped: result.skipped }, em);
      return { ...result, restart: await this.releases.recordBatch(em, c, result, b) };
    });
  }

  /** The campaign's content row, made once (a second worker racing here keeps the first). */
  private async createContent(c: Campaign): Promise<string> {
    return this.dataSource.transaction(async (em) => {
      const existing = await this.repository.lockContentId(c.projectId, c.id, em);
      if (existing) return existing;
      const id = await this.emails.createContent(c.projectId, campaignContent(c), em);
      await this.repository.setContentId(c.projectId, c.id, id, em);
      return id;
    });
  }
}

