import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Fragment } from '../../../platform/database/sql-fragment';
import type { FieldError } from '../../../platform/http/app-error';
import { EmailQueueFacade } from '../../emails';
import { AbLockedState, AbTestRepository } from '../ab-test.repository';
import { abNotPickable, abUnknownVariant, abWithRecipientTimezone, campaignNotFound } from '../campaigns.errors';
import type { AbTestDto } from '../dto/ab-test.dto';
import type { AbTestStats } from '../dto/ab-test.dto';
import type { AbTestSettings, Campaign } from '../entities/campaign.entity';
import { AbMembership, andSql, inTestShareSql, notSql, variantIndexSql, ZERO_SQL } from '../sql/ab-test.sql';
import { CampaignAudience } from './campaign-audience';
import { LiquidCheck } from '../../templates';
import { campaignContent } from './campaign-content';
import type { CampaignStage, CampaignWalk, StagePlan } from './campaign-stage';

/** The variants' letters: the campaign's own content is "A", its `abTest.variants` "B", "C", … */
export const abLetters = (settings: AbTestSettings): string[] => ['A', ...settings.variants.map((_, i) => String.fromCharCode(66 + i))];

/** What decides a contact's part: the cuts, or the seeds of a campaign that started before cuts existed. */
const membershipOf = (c: Campaign, s: AbLockedState): AbMembership => ({
  campaignId: c.id,
  testPercent: c.abTest!.testPercent,
  count: abLetters(c.abTest!).length,
  cuts: s.ab_cuts,
  seed: s.ab_seed,
});

const rate = (n: number, of: number) => (of > 0 ? n / of : 0);

/**
 * A campaign's A/B test (docs/delivery-control.md#ab-tests), decided in the database: the engine
 * walks the test share (the first `round(testPercent% × audience)` contacts in a hash order of
 * campaign and contact, cut into even variants when sending starts) with each contact's variant
 * content; once it is written the wait starts (`ab_wait_until`); when the wait is over (or a
 * winner is picked by hand) the winner is computed in SQL and the rest of the fixed audience is
 * walked from a fresh cursor with the winner's content. Every transition runs
 * under the campaign's row lock with the checkpoint it implies, so a worker killed anywhere
 * resumes from the row, and the unique (campaign, contact) key writes no contact twice.
 */
@Injectable()
export class AbTests implements CampaignStage {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: AbTestRepository,
    private readonly emails: EmailQueueFacade,
    private readonly audience: CampaignAudience,
    private readonly liquid: LiquidCheck,
  ) {}

  /** The settings as saved (defaults applied), and 422 items for Liquid errors in the variants. */
  async settingsOf(dto: AbTestDto | null | undefined): Promise<{ settings: AbTestSettings | null; problems: FieldError[] }> {
    if (!dto) return { settings: null, problems: [] };
    const checked = await Promise.all(dto.variants.map((v) => this.liquid.problems({ subject: v.subject, body: v.body })));
    const problems = checked.flatMap((items, i) => items.map((p) => ({ ...p, field: `abTest.variants[${i}].${p.field}` })));
    const settings: AbTestSettings = {
      variants: dto.variants.map((v) => ({ subject: v.subject, body: v.body ?? null, fromName: v.fromName?.trim() || null })),
      testPercent: dto.testPercent ?? 20,
      metric: dto.metric ?? 'opens',
      waitMinutes: dto.waitMinutes,
    };
    return { settings, problems };
  }

  /** An A/B test compares variants sent at one time: a send in the recipients' time zones is refused (422 naming `timezone`). */
  assertSendable(c: Campaign, timezone: unknown): void {
    if (c.abTest && timezone === 'recipient') throw abWithRecipientTimezone();
  }

  readonly name = 'ab-test';

  /** The engine's first stage (`campaign-stage.ts`, under the campaign's lock; nothing to say for a plain campaign): which part of the audience is walked now and with which content, or `hold` while the test waits. */
  async plan(c: Campaign, walk: CampaignWalk): Promise<StagePlan | 'hold'> {
    const settings = c.abTest;
    if (!settings) return {};
    const letters = abLetters(settings);
    return this.dataSource.transaction(async (em) => {
      const s = await this.repository.lockState(c.projectId, c.id, em);
      if (!s || s.status !== 'SENDING') return 'hold' as const;
      if (s.ab_phase === null) await this.start(c, walk.fixedAt, letters, s, em);
      if (s.ab_phase === 'testing' && s.audience_done) {
        if (!s.ab_winner) {
          await this.repository.startWaiting(c.projectId, c.id, em);
          return 'hold' as const;
        }
        await this.toWinner(c, s, s.ab_winner, em);
      }
      if (s.ab_phase === 'waiting') {
        if (!s.wait_over && !s.ab_winner) return 'hold' as const;
        await this.toWinner(c, s, s.ab_winner ?? (await this.repository.leader(c.projectId, c.id, letters, settings.metric, em)), em);
      }
      const contents = s.ab_contents!;
      const membership = membershipOf(c, s);
      const test = inTestShareSql(membership);
      const state = { audience_done: s.audience_done, cursor_created_at: s.cursor_created_at, cursor_id: s.cursor_id };
      if (s.ab_phase === 'winner') {
        const w = s.ab_winner!;
        return { state, audience: (condition: Fragment) => andSql(condition, notSql(test)), variants: { index: ZERO_SQL, contentIds: [contents[w]], letters: [w] } };
      }
      return {
        state,
        audience: (condition: Fragment) => andSql(condition, test),
        variants: { index: variantIndexSql(membership), contentIds: letters.map((l) => contents[l]), letters },
      };
    });
  }

  /** Sending starts: one content row per variant and the test share's cuts, made once (the row lock serialises racing workers). */
  private async start(c: Campaign, fixedAt: string, letters: string[], s: AbLockedState, em: EntityManager): Promise<void> {
    const base = campaignContent(c);
    const contents: Record<string, string> = {};
    const sources = [{ subject: c.subject, body: c.body, fromName: c.fromName }, ...c.abTest!.variants];
    for (const [i, letter] of letters.entries()) {
      const v = sources[i];
      contents[letter] = await this.emails.createContent(c.projectId, { ...base, subject: v.subject, body: v.body ?? c.body, fromName: v.fromName ?? c.fromName }, em);
    }
    const cuts = await this.repository.cuts(c.projectId, em, {
      campaignId: c.id,
      type: c.type,
      condition: await this.audience.condition(c.projectId, c),
      topic: await this.audience.topic(c.projectId, c),
      fixedAt,
      testPercent: c.abTest!.testPercent,
      count: letters.length,
    });
    await this.repository.startTesting(c.projectId, c.id, contents, cuts, em);
    Object.assign(s, { ab_phase: 'testing', ab_contents: contents, ab_cuts: cuts });
  }

  private async toWinner(c: Campaign, s: AbLockedState, winner: string, em: EntityManager): Promise<void> {
    await this.repository.startWinner(c.projectId, c.id, winner, em);
    Object.assign(s, { ab_phase: 'winner', ab_winner: s.ab_winner ?? winner, audience_done: false, cursor_created_at: null, cursor_id: null });
  }

  /**
   * `POST /campaigns/:id/ab/winner`: while the test runs (SENDING, no winner yet). During the wait the
   * rest starts at once; while the test share is still being written, it starts once that is done.
   */
  async pickWinner(c: Campaign, variant: string): Promise<void> {
    if (!c.abTest) throw abNotPickable('the campaign has no A/B test');
    if (!abLetters(c.abTest).includes(variant)) throw abUnknownVariant(variant, abLetters(c.abTest));
    await this.dataSource.transaction(async (em) => {
      const s = await this.repository.lockState(c.projectId, c.id, em);
      if (!s) throw campaignNotFound();
      if (s.status !== 'SENDING') throw abNotPickable(`the campaign is ${s.status}`);
      if (s.ab_winner || s.ab_phase === 'winner') throw abNotPickable(`the winner is already ${s.ab_winner}`);
      if (s.ab_phase === 'waiting') await this.repository.startWinner(c.projectId, c.id, variant, em);
      else await this.repository.setWinner(c.projectId, c.id, variant, em);
    });
  }

  /**
   * The parts of the fixed audience not written yet, for a cancel (the caller holds the row lock):
   * before the winner phase, the rest share (all of it) and what is left of the test share.
   */
  async unwrittenParts(
    c: Campaign,
    row: { audience_done: boolean; cursor_created_at: string | null; cursor_id: string | null },
    condition: Fragment,
    em: EntityManager,
  ): Promise<Array<{ condition: Fragment; after: { createdAt: string; id: string } | null }> | null> {
    if (!c.abTest) return null;
    const s = await this.repository.lockState(c.projectId, c.id, em);
    if (!s || s.ab_phase === null || s.ab_phase === 'winner') return null;
    const test = inTestShareSql(membershipOf(c, s));
    const after = row.cursor_id && row.cursor_created_at ? { createdAt: row.cursor_created_at, id: row.cursor_id } : null;
    const parts = [{ condition: andSql(condition, notSql(test)), after: null }];
    return row.audience_done ? parts : [...parts, { condition: andSql(condition, test), after }];
  }

  /** `stats.abTest`: null for a plain campaign or before sending starts. */
  async stats(c: Campaign): Promise<AbTestStats | null> {
    if (!c.abTest || !c.abPhase) return null;
    const counts = new Map((await this.repository.variantCounts(c.projectId, c.id)).map((r) => [r.variant, r]));
    const subjects = [c.subject, ...c.abTest.variants.map((v) => v.subject)];
    return {
      phase: c.abPhase,
      winner: c.abWinner,
      decidedAt: c.abDecidedAt ? c.abDecidedAt.toISOString() : null,
      variants: abLetters(c.abTest).map((variant, i) => {
        const n = counts.get(variant) ?? { recipients: 0, delivered: 0, opened: 0, clicked: 0 };
        return {
          variant,
          subject: subjects[i],
          recipients: n.recipients,
          delivered: n.delivered,
          opened: n.opened,
          clicked: n.clicked,
          openRate: rate(n.opened, n.delivered),
          clickRate: rate(n.clicked, n.delivered),
        };
      }),
    };
  }
}
