import type { EntityManager } from 'typeorm';
import type { Fragment } from '../../../platform/database/sql-fragment';
import type { AudienceBatchResult, AudienceVariants } from '../../emails';
import type { LeasedCampaign } from '../campaigns.repository';
import type { Campaign } from '../entities/campaign.entity';

/** A campaign's fan-out checkpoint: whether its audience is written, and where the walk stands. */
export type WalkState = Pick<LeasedCampaign, 'audience_done' | 'cursor_created_at' | 'cursor_id'>;

/** The walk as the stages before this one left it. */
export interface CampaignWalk {
  state: WalkState;
  /** The instant the audience was fixed at. */
  fixedAt: string;
  /** The audience (alias `c`) as the stages before narrowed it; read once per tick, when a stage or the walk needs it. */
  condition: () => Promise<Fragment>;
}

/** What one stage says about a campaign's walk for one tick; every part is optional. */
export interface StagePlan {
  /** A checkpoint of the stage's own (an A/B test's phase starts its walk over). */
  state?: WalkState;
  /** Narrows the audience itself (an A/B test's share): every later stage and the walk see it narrowed. */
  audience?: (condition: Fragment) => Fragment;
  /** The variants' contents and how a contact picks one (an A/B test). */
  variants?: AudienceVariants;
  /** Narrows what may be written now inside that audience (recipient time zones); the audience's end is still judged on the whole. */
  release?: (condition: Fragment) => Fragment;
  /** Contacts this tick may write (default: no limit of this stage's; 0: none now). */
  limit?: number;
  /** In each batch's transaction, after its rows: true when the walk starts over from a fresh cursor (the tick ends there). */
  recordBatch?: (em: EntityManager, result: Pick<AudienceBatchResult, 'inserted' | 'last'>) => Promise<boolean>;
}

/**
 * One rule over how a campaign's audience is walked (docs/architecture.md, "Campaign engine"): the
 * engine asks each stage, in order, once per tick under the campaign's lock, and composes their
 * plans; `hold` writes nothing this tick. The stages are an A/B test's phases (`AbTests`) and the
 * release schedule (`ReleaseSchedule`: recipient time zones, waves, windows); the sender's
 * warm-up cap is the email door's (`EmailQueueFacade`), whose `held` answer ends the tick's walk.
 */
export interface CampaignStage {
  readonly name: string;
  plan(c: Campaign, walk: CampaignWalk): Promise<StagePlan | 'hold'>;
}

/** The Nest token under which the module lists its stages, in the order they apply. */
export const CAMPAIGN_STAGES = Symbol('CAMPAIGN_STAGES');
