import { DatabaseTraits } from '../../platform/database/database-traits';
import type { HistoryPartitions, MonthPartition } from '../../platform/database/history-partitions';
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
  const service = new RetentionService(registry, repository, {} as DataHeldRepository, {} as ProjectsService, {} as HistoryPartitions, new DatabaseTraits({ concurrentTransactions: true }));
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

describe('RetentionService: whole months of a partitioned table', () => {
  const month = (name: string, from: string, to: string): MonthPartition => ({ name, from: new Date(from), to: new Date(to) });
  function partitioned(owners: Record<string, Array<string | null>>, retentions: Array<{ id: string; retention: object }>) {
    const registry = new RetentionRegistry();
    const batches: string[] = [];
    registry.registerPruner({
      name: 'events',
      kind: 'eventsDays',
      batchSize: 1000,
      partitioned: 'events',
      prune: async (projectId) => {
        batches.push(projectId);
        return { count: 0 };
      },
    });
    const dropped: string[] = [];
    const partitions = {
      detached: jest.fn(async () => ['events_p202512']),
      months: jest.fn(async () => [
        month('events_p202601', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'),
        month('events_p202602', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z'),
        month('events_p202603', '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z'),
        month('events_p202605', '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z'),
        month('events_p202606', '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z'),
      ]),
      projectsIn: jest.fn(async (name: string) => owners[name] ?? []),
      drop: jest.fn(async (_table: string, name: string) => {
        dropped.push(name);
        return true;
      }),
    } as unknown as HistoryPartitions;
    const repository = {
      retentionsAcrossProjects: jest.fn(async () => retentions),
      retentionsOf: jest.fn(async (ids: string[]) => retentions.filter((r) => ids.includes(r.id))),
    } as unknown as ProjectsRepository;
    const service = new RetentionService(registry, repository, {} as DataHeldRepository, {} as ProjectsService, partitions, new DatabaseTraits({ concurrentTransactions: true }));
    return { service, dropped, batches, partitions };
  }

  it("drops a past month only when every owner's cutoff is at or after its end, then prunes the rest in batches", async () => {
    const { service, dropped, batches, partitions } = partitioned(
      {
        // a (30 days) alone: past its cutoff (2026-05-31) → dropped; with b (kept for good) → stays.
        events_p202601: ['a'],
        events_p202602: ['a', 'b'],
        // a and c (100 days: cutoff 2026-03-22, before March ends) → stays; account mail only → dropped.
        events_p202603: ['a', 'c'],
        events_p202605: [null],
        // The current month is never dropped, whoever owns it.
        events_p202606: ['a'],
      },
      [
        { id: 'a', retention: { eventsDays: 30 } },
        { id: 'b', retention: {} },
        { id: 'c', retention: { eventsDays: 100 } },
      ],
    );
    await service.pruneRound(() => false, now);
    expect(dropped).toEqual(['events_p202512', 'events_p202601', 'events_p202605']);
    expect(partitions.projectsIn).not.toHaveBeenCalledWith('events_p202606');
    expect(batches).toEqual(['a', 'c']);
  });

  it('a project deleted meanwhile holds no month', async () => {
    const { service, dropped } = partitioned({ events_p202601: ['gone'] }, []);
    await service.pruneRound(() => false, now);
    expect(dropped).toContain('events_p202601');
  });
});
