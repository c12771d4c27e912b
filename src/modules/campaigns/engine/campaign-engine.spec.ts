import type { AppConfig } from '../../../config/config';
import { SingletonLocks } from '../../../platform/database/singleton-locks';
import { raw, type Fragment } from '../../../platform/database/sql-fragment';
import { automock } from '../../../../test/support/automock';
import { EmailQueueFacade } from '../../emails';
import { CampaignsRepository, LeasedCampaign } from '../campaigns.repository';
import type { Campaign } from '../entities/campaign.entity';
import { CampaignAudience } from './campaign-audience';
import { BatchRequest, CampaignBatches } from './campaign-batches';
import { CampaignEngine } from './campaign-engine';
import type { CampaignStage, CampaignWalk, StagePlan } from './campaign-stage';

const leased: LeasedCampaign = { id: 'c1', audience_done: false, content_id: 'content-1', fixed_at: '2026-11-29 10:00:00+00', cursor_created_at: null, cursor_id: null };
const campaign = { id: 'c1', projectId: 'p1', type: 'MARKETING', fromAddress: 'news@example.com' } as Campaign;

/** A stage whose plan is given by the test, recording the walks it was shown. */
function stage(name: string, plan: (walk: CampaignWalk) => Promise<StagePlan | 'hold'>): CampaignStage & { walks: CampaignWalk[] } {
  const walks: CampaignWalk[] = [];
  return {
    name,
    walks,
    plan: (_c, walk) => {
      walks.push(walk);
      return plan(walk);
    },
  };
}

/**
 * The engine over its ports: the repository, the batch writer, the email door and the locks are
 * automocks; the stages are given per test. A batch of `n` contacts writes `n` rows; the audience
 * ends after `audience` contacts.
 */
function engine(stages: CampaignStage[], opts: { audience?: number; batchSize?: number; backlog?: number } = {}) {
  let walked = 0;
  const audienceSize = opts.audience ?? 10_000;
  const requests: BatchRequest[] = [];
  const repository = automock(CampaignsRepository, {
    fanOutState: async () => leased,
    findOne: async () => campaign,
    backlog: async () => opts.backlog ?? 0,
    markSent: async () => undefined,
  });
  const batches = automock(CampaignBatches, {
    contentOf: async (_c, existing) => existing ?? 'made',
    write: async (_c, b) => {
      requests.push(b);
      const n = Math.min(b.limit, audienceSize - walked);
      walked += n;
      let restart = false;
      const result = { inserted: n, queuedIds: Array.from({ length: n }, (_, i) => `e${walked - n + i}`), skipped: {}, last: walked < audienceSize ? { createdAt: 't', id: `k${walked}` } : null };
      for (const record of b.recorders) restart = (await record({} as never, result)) || restart;
      return { ...result, restart };
    },
  });
  const audience = automock(CampaignAudience, { condition: async () => raw('base'), topic: async () => null });
  const emails = automock(EmailQueueFacade, { enqueueGrouped: async () => undefined });
  const locks = automock(SingletonLocks, { tryLock: async (_s, names) => names, unlock: async () => undefined });
  const config = { campaigns: { batchSize: opts.batchSize ?? 1_000, maxQueued: 100_000 } } as AppConfig;
  const e = new CampaignEngine(config, emails, repository, audience, batches, stages, locks);
  const advance = () => (e as unknown as { advance(row: { id: string; project_id: string }): Promise<boolean> }).advance({ id: 'c1', project_id: 'p1' });
  return { advance, requests, repository, audience, emails };
}

describe('CampaignEngine over its stages', () => {
  it('without stages, walks the audience in batches to its end and marks the campaign sent', async () => {
    const { advance, requests, repository } = engine([], { audience: 2_500 });
    await advance();
    expect(requests.map((r) => r.limit)).toEqual([1_000, 1_000, 1_000]);
    expect(requests.every((r) => r.condition.text === 'base' && r.released.text === 'base' && r.contentId === 'content-1')).toBe(true);
    expect(repository.markSent).toHaveBeenCalledWith('p1', 'c1');
  });

  it('writes nothing while a stage holds, and neither asks the stages after it nor marks the campaign sent', async () => {
    const after = stage('after', async () => ({}));
    const { advance, requests, repository, audience } = engine([stage('hold', async () => 'hold'), after]);
    expect(await advance()).toBe(false);
    expect([requests.length, after.walks.length, repository.markSent.mock.calls.length, audience.condition.mock.calls.length]).toEqual([0, 0, 0, 0]);
  });

  it("asks each stage once per tick, keeps to the smallest limit, and stops the tick's walk at it", async () => {
    const wide = stage('wide', async () => ({ limit: 2_500 }));
    const narrow = stage('narrow', async () => ({ limit: 1_500 }));
    const { advance, requests, repository } = engine([wide, narrow], { audience: 10_000 });
    await advance();
    expect([wide.walks.length, narrow.walks.length]).toEqual([1, 1]);
    expect(requests.map((r) => r.limit)).toEqual([1_000, 500]);
    expect(repository.markSent).not.toHaveBeenCalled();
  });

  it("shows each stage the audience as the stages before narrowed it, and applies the release narrowings inside the batch only", async () => {
    const share = stage('share', async () => ({ audience: (f: Fragment) => raw(`(${f.text}) AND share`), variants: { index: raw('0'), contentIds: ['variant-a'], letters: ['A'] } }));
    const seen: string[] = [];
    const release = stage('release', async (walk) => {
      seen.push((await walk.condition()).text);
      return { release: (f: Fragment) => raw(`(${f.text}) AND released`) };
    });
    const { advance, requests, audience } = engine([share, release], { audience: 10 });
    await advance();
    expect(seen).toEqual(['(base) AND share']);
    expect(requests[0]).toMatchObject({ contentId: 'variant-a' });
    expect(requests[0].condition.text).toBe('(base) AND share');
    expect(requests[0].released.text).toBe('((base) AND share) AND released');
    // The base audience is read once per tick, however many stages and batches ask for it.
    expect(audience.condition).toHaveBeenCalledTimes(1);
  });

  it("runs every stage's batch record in the batch, and ends the tick's walk when one starts the walk over", async () => {
    let records = 0;
    const zones = stage('zones', async () => ({ recordBatch: async () => ++records === 2 }));
    const { advance, requests, repository } = engine([zones], { audience: 10_000 });
    await advance();
    expect(requests).toHaveLength(2);
    expect(records).toBe(2);
    expect(repository.markSent).not.toHaveBeenCalled();
  });

  it('takes a stage\'s own checkpoint (an A/B phase starting its walk over) as where the walk starts', async () => {
    const phase = stage('phase', async () => ({ state: { audience_done: false, cursor_created_at: '2026-11-29', cursor_id: 'k42' } }));
    const { advance, requests } = engine([phase], { audience: 10 });
    await advance();
    expect(requests[0].after).toEqual({ createdAt: '2026-11-29', id: 'k42' });
  });

  it('once the audience is written, only marks the campaign sent when no email of it is left unfinished', async () => {
    const done = stage('done', async () => ({ state: { audience_done: true, cursor_created_at: null, cursor_id: null } }));
    const waiting = engine([done], { backlog: 3 });
    await waiting.advance();
    expect([waiting.requests.length, waiting.repository.markSent.mock.calls.length]).toEqual([0, 0]);
    const drained = engine([done], { backlog: 0 });
    await drained.advance();
    expect(drained.repository.markSent).toHaveBeenCalledTimes(1);
  });
});
