import type { DataHeldRepository } from './data-held.repository';
import type { ProjectsRepository } from './projects.repository';
import type { ProjectsService } from './projects.service';
import { RetentionService } from './retention.service';
import { RetentionRegistry } from './retention/retention-registry';

const DAY = 86_400_000;
const now = new Date('2026-06-30T00:00:00Z');

function fixture(projects: Array<{ id: string; retention: object }>, batches: number[], resumes = true) {
  const registry = new RetentionRegistry();
  const calls: Array<{ projectId: string; from: Date | null; before: Date; limit: number }> = [];
  const left = [...batches];
  registry.registerPruner({
    name: 'content',
    kind: 'emailContentDays',
    batchSize: 2,
    resumes,
    prune: async (projectId, range, limit) => {
      calls.push({ projectId, ...range, limit });
      return { count: left.shift() ?? 0, lastAt: new Date(calls.length * 1000) };
    },
  });
  const repository = {
    retentionsAcrossProjects: jest.fn(async (afterId: string | null) => projects.filter((p) => afterId === null || p.id > afterId)),
  } as unknown as ProjectsRepository;
  const service = new RetentionService(registry, repository, {} as DataHeldRepository, {} as ProjectsService);
  return { service, calls };
}

describe('RetentionService.pruneRound', () => {
  it("prunes each project up to its own cutoff, in batches until one comes back short (each from the last one's end), and skips a kind kept for good", async () => {
    const { service, calls } = fixture(
      [
        { id: 'a', retention: {} },
        { id: 'b', retention: { emailContentDays: 7 } },
        { id: 'c', retention: { emailContentDays: null } },
      ],
      [2, 2, 1, 0],
    );
    expect(await service.pruneRound(() => false, now)).toBe(5);
    expect(calls).toEqual([
      { projectId: 'a', from: null, before: new Date(now.getTime() - 30 * DAY), limit: 2 },
      { projectId: 'a', from: new Date(1000), before: new Date(now.getTime() - 30 * DAY), limit: 2 },
      { projectId: 'a', from: new Date(2000), before: new Date(now.getTime() - 30 * DAY), limit: 2 },
      { projectId: 'b', from: null, before: new Date(now.getTime() - 7 * DAY), limit: 2 },
    ]);
  });

  it('a later round starts where a completed one reached, and skips a project whose cutoff has not moved past it', async () => {
    const { service, calls } = fixture([{ id: 'a', retention: {} }], [0, 0]);
    await service.pruneRound(() => false, now);
    await service.pruneRound(() => false, now);
    const later = new Date(now.getTime() + DAY / 2);
    await service.pruneRound(() => false, later);
    expect(calls.map((c) => [c.from, c.before])).toEqual([
      [null, new Date(now.getTime() - 30 * DAY)],
      [new Date(now.getTime() - 30 * DAY), new Date(later.getTime() - 30 * DAY)],
    ]);
  });

  it('walks everything again a day after its last whole walk, and always when it does not resume', async () => {
    const { service, calls } = fixture([{ id: 'a', retention: {} }], []);
    await service.pruneRound(() => false, now);
    const nextDay = new Date(now.getTime() + DAY + 1);
    await service.pruneRound(() => false, nextDay);
    expect(calls.map((c) => c.from)).toEqual([null, null]);
    const deleting = fixture([{ id: 'a', retention: {} }], [], false);
    await deleting.service.pruneRound(() => false, now);
    await deleting.service.pruneRound(() => false, now);
    expect(deleting.calls.map((c) => c.from)).toEqual([null, null]);
  });

  it('a pruner that fails is retried from the same place next round; the others go on', async () => {
    const { service, calls } = fixture([{ id: 'a', retention: {} }, { id: 'b', retention: {} }], []);
    const registry = (service as unknown as { registry: RetentionRegistry }).registry;
    let failed = false;
    registry.pruners()[0].prune = async (projectId, range, limit) => {
      calls.push({ projectId, ...range, limit });
      if (projectId === 'a' && !failed) {
        failed = true;
        throw new Error('lock timeout');
      }
      return { count: 0 };
    };
    await service.pruneRound(() => false, now);
    await service.pruneRound(() => false, now);
    expect(calls.map((c) => [c.projectId, c.from])).toEqual([
      ['a', null],
      ['b', null],
      ['a', null],
    ]);
  });

  it('stops between batches once stopped', async () => {
    let stop = false;
    const { service, calls } = fixture([{ id: 'a', retention: {} }], [2, 2, 2]);
    const registry = (service as unknown as { registry: RetentionRegistry }).registry;
    const prune = registry.pruners()[0].prune;
    registry.pruners()[0].prune = async (...args) => {
      stop = true;
      return prune(...args);
    };
    await service.pruneRound(() => stop, now);
    expect(calls).toHaveLength(1);
  });
});
