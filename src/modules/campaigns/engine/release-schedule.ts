import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WarmupLedger } from '../../domains';
import { Fragment, sql } from '../../../platform/database/sql-fragment';
import type { AudienceBatchResult } from '../../emails';
import type { Campaign } from '../entities/campaign.entity';
import { ReleaseScheduleRepository, ReleaseScheduleRow } from '../release-schedule.repository';
import { campaignZonesSql, contactMomentSql, fixedAudienceSql, releasedSql, unwrittenSql } from './release-schedule.sql';
import type { CampaignStage, CampaignWalk, StagePlan } from './campaign-stage';

/** The campaign fields the schedule reads. */
type Scheduled = Pick<Campaign, 'id' | 'projectId' | 'delivery' | 'localScheduledFor' | 'fallbackTimezone'>;

/**
 * When, and how much of, a campaign's audience the engine may write now (docs/delivery-control.md):
 * recipient time zones, waves and sending windows. Everything is decided in the database, per
 * tick, from columns of the campaign row (`release_moment`, `wave_started_at`, `wave_written`,
 * `next_batch_at`), so a worker killed at any point resumes where the schedule stood, and a test
 * moves time by rewriting them. As one of the engine's stages (`plan`, once per tick) it gives how
 * many contacts the tick may write, narrows the walk to the released contacts, and records each
 * batch in the batch's transaction (a wave's count; the next moment when a moment's walk ends).
 * The statements live in `ReleaseScheduleRepository`; this class holds the decisions.
 *
 * Recipient time zones: contacts are released by moment (`scheduledFor` as wall-clock time in the
 * contact's zone), ascending. The walk of moment M (fresh cursor) writes every contact of the fixed
 * audience whose moment is at or before M and who has no email of the campaign yet; when it ends,
 * the next moment is the earliest among the contacts still unwritten. A contact whose zone changes
 * mid-campaign is therefore released at its zone as read by the walk that reaches it; one who
 * moves to a moment already released gets it with the next walk; the unique (campaign, contact)
 * row keeps it to one email whatever happens.
 */
@Injectable()
export class ReleaseSchedule implements CampaignStage {
  readonly name = 'release-schedule';
  /** PostgreSQL's zone names, read once per process (they change only with a PostgreSQL upgrade). */
  private names: Promise<string[]> | null = null;

  constructor(
    private readonly repository: ReleaseScheduleRepository,
    private readonly warmup: WarmupLedger,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Zone names PostgreSQL accepts in `AT TIME ZONE`. */
  zoneNames(): Promise<string[]> {
    this.names ??= this.repository.zoneNames().catch((err: unknown) => {
      this.names = null;
      throw err;
    });
    return this.names;
  }

  async isKnownZone(name: string): Promise<boolean> {
    return (await this.zoneNames()).includes(name);
  }

  /** The engine's stage: a campaign with neither recipient time zones nor delivery settings has nothing to say. */
  async plan(c: Campaign, walk: CampaignWalk): Promise<StagePlan> {
    if ((!c.localScheduledFor && !c.delivery) || walk.state.audience_done) return {};
    const limit = await this.allowance(c, walk);
    if (limit === 0) return { limit };
    return {
      limit,
      release: c.localScheduledFor ? this.released(c, await this.zoneNames()) : undefined,
      recordBatch: (em, result) => this.recordBatch(em, c, result, walk),
    };
  }

  /** For recipient time zones, only unwritten contacts whose moment has been released. */
  private released(c: Scheduled, zoneNames: string[]): (condition: Fragment) => Fragment {
    const zones = campaignZonesSql(c.id);
    const moment = contactMomentSql(zones.wall, zones.fallback, zoneNames);
    return (condition) => sql`(${condition}) AND ${releasedSql(c.id, moment)} AND ${unwrittenSql(c.projectId, c.id)}`;
  }

  /** The wall-clock time `wall` in `zone`. */
  momentIn(wall: string, zone: string): Promise<Date> {
    return this.repository.momentIn(wall, zone);
  }

  /**
   * The earliest release moment among contacts `c` of `audience` (with `unwritten`, only those
   * without an email of the campaign), or null when there are none.
   */
  async firstMoment(
    c: Pick<Scheduled, 'id' | 'projectId'>,
    zones: { wall: Fragment; fallback: Fragment },
    audience: Fragment,
    opts: { unwritten: boolean; em?: EntityManager },
  ): Promise<Date | null> {
    const moment = contactMomentSql(zones.wall, zones.fallback, await this.zoneNames());
    return this.repository.firstMoment(c.projectId, c.id, moment, audience, opts);
  }

  /**
   * How many contacts this tick may write (Infinity: no limit of the schedule's), or 0 when
   * nothing may be written yet, `next_batch_at` then saying when. Starts a wave when one is due
   * inside the window. A wave that started inside the window writes its whole `batchSize`, even
   * past the window's end; a campaign without `batchSize` checks the window at every tick (at
   * most 2 s of batches apart).
   */
  private async allowance(c: Scheduled, walk: CampaignWalk): Promise<number> {
    const s = await this.repository.state(c.projectId, c.id);
    if (c.localScheduledFor) {
      let moment = s.release_moment;
      if (!moment) {
        moment =
          (await this.firstMoment(c, campaignZonesSql(c.id), fixedAudienceSql(c.projectId, walk.fixedAt, await walk.condition()), { unwritten: true })) ??
          s.now;
        await this.repository.setReleaseMoment(c.projectId, c.id, moment);
      }
      if (moment > s.now) return this.park(c, s, moment);
    }
    const d = c.delivery;
    if (!d) return this.clear(c, s, Infinity);
    const cap = d.batchSize;
    if (cap && s.wave_started_at && s.wave_written < cap) return this.clear(c, s, cap - s.wave_written);
    const earliest = cap && s.wave_started_at ? new Date(s.wave_started_at.getTime() + (d.intervalMinutes ?? 60) * 60_000) : s.now;
    const from = earliest > s.now ? earliest : s.now;
    const opening = d.window ? await this.nextOpening(from, d.window) : from;
    if (opening > s.now) return this.park(c, s, opening);
    if (!cap) return this.clear(c, s, Infinity);
    await this.repository.startWave(c.projectId, c.id);
    return cap;
  }

  /**
   * In the batch's transaction: the wave's count, and for recipient time zones, at the end of a
   * moment's walk, the next moment (the cursor starts over). True when the walk starts over.
   */
  private async recordBatch(em: EntityManager, c: Scheduled, result: Pick<AudienceBatchResult, 'inserted' | 'last'>, walk: CampaignWalk): Promise<boolean> {
    if (c.delivery?.batchSize && result.inserted > 0) {
      await this.repository.addWaveWritten(c.projectId, c.id, result.inserted, em);
    }
    if (!c.localScheduledFor || result.last !== null) return false;
    const next = await this.firstMoment(c, campaignZonesSql(c.id), fixedAudienceSql(c.projectId, walk.fixedAt, await walk.condition()), { unwritten: true, em });
    if (!next) return false;
    await this.repository.releaseNext(c.projectId, c.id, next, em);
    return true;
  }

  /**
   * The audience not yet written (SENDING campaigns; 0 otherwise) and when the next batch may go:
   * the schedule's next batch, or, when the sender's warm-up cap for today is reached, the next UTC day.
   */
  async timeline(c: Pick<Campaign, 'id' | 'projectId' | 'status' | 'audienceDone' | 'audienceFixedAt' | 'fromAddress'>, condition: () => Promise<Fragment>) {
    if (c.status !== 'SENDING' || c.audienceDone || !c.audienceFixedAt) return { waiting: 0, nextBatchAt: null };
    const audience = fixedAudienceSql(c.projectId, c.audienceFixedAt.toISOString(), await condition());
    const timeline = await this.repository.waiting(c.projectId, c.id, audience);
    if (timeline.waiting === 0 || timeline.nextBatchAt) return timeline;
    return { ...timeline, nextBatchAt: await this.warmup.heldUntil(this.dataSource.manager, c.projectId, c.fromAddress) };
  }

  private async nextOpening(from: Date, window: NonNullable<NonNullable<Campaign['delivery']>['window']>): Promise<Date> {
    // A window always opens within a week of any instant (validation keeps `days` non-empty).
    return (await this.repository.nextOpening(from, window)) ?? new Date(from.getTime() + 7 * 86_400_000);
  }

  /** Nothing now: the next batch at `at` (persisted for stats and the dashboard). */
  private async park(c: Scheduled, s: ReleaseScheduleRow, at: Date): Promise<number> {
    if (s.next_batch_at?.getTime() !== at.getTime()) await this.repository.setNextBatchAt(c.projectId, c.id, at);
    return 0;
  }

  private async clear(c: Scheduled, s: ReleaseScheduleRow, n: number): Promise<number> {
    if (s.next_batch_at) await this.repository.setNextBatchAt(c.projectId, c.id, null);
    return n;
  }
}
