import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { ADVISORY_LOCKS } from '../../../platform/database/advisory-locks';
import { SingletonLocks } from '../../../platform/database/singleton-locks';
import { logger } from '../../../platform/logging/logger';
import type { Fragment } from '../../../platform/database/sql-fragment';
import { AudienceCursor, AudienceVariants, EmailQueueFacade } from '../../emails';
import { BillingLimitExceeded } from '../../billing';
import { CampaignsRepository, EngineCampaignRow, LeasedCampaign } from '../campaigns.repository';
import type { Campaign } from '../entities/campaign.entity';
import { CampaignAudience } from './campaign-audience';
import { CampaignBatches } from './campaign-batches';
import { CAMPAIGN_STAGES, CampaignStage, CampaignWalk, StagePlan } from './campaign-stage';

/** A tick hands over batches for at most this long, then lets the next tick (and other campaigns) run. */
const TICK_BUDGET_MS = 2_000;

type CampaignRow = EngineCampaignRow;

/**
 * The campaign send engine, called by `CampaignTick` (`worker/campaign-tick.ts`) every 250 ms on
 * worker processes: scheduled campaigns whose
 * `scheduled_for` has passed become SENDING (the time is in the database, so a restart or a
 * lost job loses none); each SENDING campaign (one worker at a time, by its `SingletonLocks` lock,
 * which a killed worker's connection takes with it) asks its stages (`campaign-stage.ts`: an A/B
 * test, the release schedule) once per tick, then gets its audience walked in keyset batches
 * (`CampaignBatches`, one transaction each: rows + checkpoint + the stages' records) while the
 * plans allow and fewer than `CAMPAIGN_MAX_QUEUED` of its emails wait ahead of the transport; each
 * batch's `queued` rows then go to the send queue in grouped jobs. When the audience is
 * exhausted and no email is left unfinished, the campaign is SENT.
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
    private readonly emails: EmailQueueFacade,
    private readonly repository: CampaignsRepository,
    private readonly audience: CampaignAudience,
    private readonly batches: CampaignBatches,
    @Inject(CAMPAIGN_STAGES) private readonly stages: CampaignStage[],
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
   * One campaign, under its lock: the stages' plans once, batches while the backlog and the plans
   * allow, then completion. True when the tick's time budget alone stopped it (more of its audience
   * to write, room for it).
   */
  private async advance(row: CampaignRow): Promise<boolean> {
    const [locked] = await this.locks.tryLock(ADVISORY_LOCKS.campaignFanOut, [row.id]);
    if (locked === undefined) return false;
    try {
      const campaign = await this.repository.fanOutState(row.project_id, row.id);
      if (!campaign) return false;
      const entity = await this.repository.findOne(row.project_id, row.id);
      if (!entity) return false;
      const plan = await this.plan(entity, campaign);
      if (plan === 'hold') return false;
      let done = plan.walk.state.audience_done;
      if (!done) {
        const contentId = plan.variants?.contentIds[0] ?? (await this.batches.contentOf(entity, campaign.content_id));
        const condition = await plan.walk.condition();
        const released = plan.release(condition);
        const topic = await this.audience.topic(entity.projectId, entity);
        const state = plan.walk.state;
        let after: AudienceCursor | null = state.cursor_id && state.cursor_created_at ? { createdAt: state.cursor_created_at, id: state.cursor_id } : null;
        let remaining = plan.limit;
        const deadline = Date.now() + TICK_BUDGET_MS;
        // At most `maxQueued` of its emails wait ahead of the transport (`queued`/`sending`): a batch is written only when it fits.
        // Counted once per tick: only this loop adds to the backlog, so adding each batch to the
        // count can only over-estimate it (emails leave as they are sent), never let too many in.
        const { batchSize, maxQueued } = this.config.campaigns;
        const carried = this.carried.get(entity.id);
        this.carried.delete(entity.id);
        let backlog = carried && carried.cursorId === state.cursor_id ? carried.backlog : await this.repository.backlog(entity.projectId, entity.id, maxQueued);
        const fits = () => backlog + batchSize <= Math.max(maxQueued, batchSize);
        while (!done && !this.stopped && Date.now() < deadline && fits() && remaining > 0) {
          const batch = await this.batches.write(entity, {
            contentId,
            condition,
            released,
            topic,
            fixedAt: campaign.fixed_at,
            after,
            variants: plan.variants,
            limit: Math.min(batchSize, remaining),
            recorders: plan.recorders,
          });
          if (batch === 'stopped') return false;
          if (batch === 'held') break; // the sender's warm-up cap is reached: the rest waits for the next UTC day
          if (batch.last === null && !batch.restart) done = true;
          after = batch.restart ? null : batch.last;
          backlog += batch.queuedIds.length;
          remaining -= batch.inserted;
          await this.emails.enqueueGrouped(batch.queuedIds, entity.type, { bulk: true });
          if (batch.restart) break; // a new walk (the next moment of recipient time zones): the stages plan it at the next tick
        }
        if (!done && !this.stopped && Date.now() >= deadline && fits() && remaining > 0) {
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
   * The stages' plans for this tick, composed in their order: each sees the walk as the ones before
   * narrowed it; the tick's limit is the smallest, the release narrowings apply one inside the
   * other, every stage's batch record runs. `hold` when one holds.
   */
  private async plan(c: Campaign, leased: LeasedCampaign) {
    let walk: CampaignWalk = { state: leased, fixedAt: leased.fixed_at, condition: once(() => this.audience.condition(c.projectId, c)) };
    let limit = Infinity;
    let variants: AudienceVariants | undefined;
    const releases: Array<(f: Fragment) => Fragment> = [];
    const recorders: Array<NonNullable<StagePlan['recordBatch']>> = [];
    for (const stage of this.stages) {
      const p = await stage.plan(c, walk);
      if (p === 'hold') return 'hold' as const;
      if (p.audience) {
        const [before, narrow] = [walk.condition, p.audience];
        walk = { ...walk, condition: once(() => before().then(narrow)) };
      }
      if (p.state) walk = { ...walk, state: p.state };
      if (p.limit !== undefined) limit = Math.min(limit, p.limit);
      if (p.release) releases.push(p.release);
      if (p.recordBatch) recorders.push(p.recordBatch);
      variants = p.variants ?? variants;
    }
    return { walk, limit, variants, recorders, release: (f: Fragment) => releases.reduce((acc, narrow) => narrow(acc), f) };
  }
}

/** `read` run at its first call only; later calls share its promise (the audience is read once per tick). */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= read());
}
