import { Injectable } from '@nestjs/common';
import { HistoryPartitions, type HistoryTable } from '../../platform/database/history-partitions';
import { DatabaseTraits } from '../../platform/database/database-traits';
import { logger } from '../../platform/logging/logger';
import { DataHeldRepository } from './data-held.repository';
import type { DataHeldResponse, HeldTableResponse } from './dto/data-held.response';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';
import { retentionCutoff, retentionOf } from './retention/retention-policy';
import { HeldTable, RetentionPruner, RetentionRegistry } from './retention/retention-registry';

/** Projects read per page of the pruning walk. */
const PROJECT_PAGE = 100;
/** The pause between two batches of one pruner: other work gets the database between the short transactions. */
const BATCH_PAUSE_MS = 100;
/** Embedded: the pause after a batch, in multiples of the batch's own time (pruning takes at most 1 / (1 + this) of the database). */
const EMBEDDED_PAUSE_FACTOR = 9;
/** A resuming pruner walks its whole range again this often (records that were in flight, clocks set back). */
const FULL_WALK_MS = 86_400_000;
/** A table's rows are counted exactly up to this many; past it, the planner's estimate. */
const COUNT_CAP = 100_000;

const log = logger('retention');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retention's work: the pruning round (every registered pruner, for every project whose setting
 * lets data of the pruner's kind go) and the storage view (what each registered table holds of a
 * project). docs/retention.md.
 */
@Injectable()
export class RetentionService {
  /**
   * Per resuming pruner and project, the cutoff a completed walk reached and when the last whole
   * walk was: a later round starts there, so it does not walk again over what it already cleared
   * (this process's memory; a restart, and each day, walk once from the start).
   */
  private readonly reached = new Map<string, { cutoff: Date; wholeAt: Date }>();

  constructor(
    private readonly registry: RetentionRegistry,
    private readonly projects: ProjectsRepository,
    private readonly held: DataHeldRepository,
    private readonly access: ProjectsService,
    private readonly partitions: HistoryPartitions,
    private readonly traits: DatabaseTraits,
  ) {}

  /** One round over every project; `stopped` is asked between batches. Answers how many records were pruned. */
  async pruneRound(stopped: () => boolean, now: Date = new Date()): Promise<number> {
    let pruned = 0;
    for (const pruner of this.registry.pruners()) {
      if (pruner.partitioned && !stopped()) await this.dropWholeMonths(pruner, pruner.partitioned, now, stopped);
    }
    let afterId: string | null = null;
    while (!stopped()) {
      const page = await this.projects.retentionsAcrossProjects(afterId, PROJECT_PAGE);
      for (const project of page) {
        const retention = retentionOf(project);
        for (const pruner of this.registry.pruners()) {
          const before = retentionCutoff(retention, pruner.kind, now);
          if (before === null || stopped()) continue;
          const key = `${pruner.name}:${project.id}`;
          const mark = pruner.resumes ? this.reached.get(key) : undefined;
          const resume = mark !== undefined && now.getTime() - mark.wholeAt.getTime() < FULL_WALK_MS;
          if (resume && mark.cutoff.getTime() >= before.getTime()) continue;
          const from = resume ? mark.cutoff : null;
          try {
            pruned += await this.pruneRange(pruner, project.id, { from, before }, stopped);
            if (pruner.resumes && !stopped()) this.reached.set(key, { cutoff: before, wholeAt: resume ? mark.wholeAt : now });
          } catch (err) {
            log.warn({ err, pruner: pruner.name, projectId: project.id }, 'retention: pruning failed; the next round tries again');
          }
        }
      }
      if (page.length < PROJECT_PAGE) break;
      afterId = page[page.length - 1].id;
    }
    return pruned;
  }

  /**
   * Drops the table's past month partitions whose every row belongs to projects that let the whole
   * month go (each one's cutoff for the pruner's kind at or after the month's end; a project that
   * keeps for good holds the month), and any detached one a busy lock left behind. A month in which
   * some project keeps rows stays, and the batches prune the others' rows inside it.
   */
  private async dropWholeMonths(pruner: RetentionPruner, table: HistoryTable, now: Date, stopped: () => boolean): Promise<void> {
    try {
      for (const leftover of await this.partitions.detached(table)) await this.partitions.drop(table, leftover);
      for (const month of await this.partitions.months(table)) {
        if (stopped() || month.to.getTime() > now.getTime()) break;
        const owners = await this.partitions.projectsIn(month.name);
        const retentions = new Map((await this.projects.retentionsOf(owners.filter((id): id is string => id !== null))).map((p) => [p.id, retentionOf(p)]));
        // Rows of no project (account mail) and of a project deleted meanwhile hold no month.
        const held = [...retentions.values()].some((r) => {
          const cutoff = retentionCutoff(r, pruner.kind, now);
          return cutoff === null || cutoff.getTime() < month.to.getTime();
        });
        if (!held) await this.partitions.drop(table, month.name);
      }
      if (pruner.afterMonthDrops && !stopped()) await pruner.afterMonthDrops();
    } catch (err) {
      log.warn({ err, pruner: pruner.name, table }, 'retention: dropping whole months failed; the next round tries again');
    }
  }

  /**
   * Batches until one comes back short (the range is done) or the round stops, with a pause
   * between; each batch starts where the previous one's last record was, so a walk over a long
   * backlog never reads what it already cleared again.
   */
  private async pruneRange(pruner: RetentionPruner, projectId: string, range: { from: Date | null; before: Date }, stopped: () => boolean): Promise<number> {
    let total = 0;
    let from = range.from;
    for (;;) {
      const batchStarted = Date.now();
      const batch = await pruner.prune(projectId, { from, before: range.before }, pruner.batchSize);
      total += batch.count;
      if (batch.count < pruner.batchSize || stopped()) return total;
      if (batch.lastAt) from = batch.lastAt;
      // The embedded database runs one statement at a time: there a batch's time is the API's wait,
      // so pruning takes at most a tenth of the database's time. PostgreSQL runs them side by side.
      await pause(this.traits.concurrentTransactions ? BATCH_PAUSE_MS : Math.max(BATCH_PAUSE_MS, EMBEDDED_PAUSE_FACTOR * (Date.now() - batchStarted)));
    }
  }

  /** What each registered table holds of the project: rows (exact up to 100,000, else estimated), estimated bytes and, where kept, the oldest record. */
  async dataHeld(userId: string, projectId: string): Promise<DataHeldResponse> {
    // Whoever may read the project's settings may read this (404 for a non-member).
    await this.access.requireRole(projectId, userId, 'MEMBER');
    const tables = await Promise.all(this.registry.tables().map((t) => this.measure(t, projectId)));
    return { tables, measuredAt: new Date().toISOString() };
  }

  private async measure(t: HeldTable, projectId: string): Promise<HeldTableResponse> {
    const [{ rows, estimated }, size, oldest] = await Promise.all([
      this.rowsOf(t, projectId),
      this.held.tableSize(t.table),
      t.oldest === undefined ? null : typeof t.oldest === 'string' ? this.held.oldest(t.table, t.oldest, projectId) : t.oldest(projectId),
    ]);
    const perRow = await this.bytesPerRow(t.table, size, rows);
    return { name: t.name, rows, rowsEstimated: estimated, bytes: Math.round(perRow * rows), oldestAt: oldest === null ? null : oldest.toISOString() };
  }

  /**
   * The table's bytes on disk (heap, TOAST, indexes) per row as the statistics count them; where
   * either is unknown (no statistics yet, an in-memory embedded database), the sampled width of its rows.
   */
  private async bytesPerRow(table: string, size: { bytes: number; rows: number }, rows: number): Promise<number> {
    if (rows === 0) return 0;
    if (size.bytes > 0 && size.rows > 0) return size.bytes / size.rows;
    return this.held.sampledRowBytes(table);
  }

  private async rowsOf(t: HeldTable, projectId: string): Promise<{ rows: number; estimated: boolean }> {
    if (t.count === 'estimated') return { rows: await this.held.plannedCount(t.table, projectId), estimated: true };
    const counted = await this.held.countUpTo(t.table, projectId, COUNT_CAP);
    if (counted <= COUNT_CAP) return { rows: counted, estimated: false };
    return { rows: Math.max(counted, await this.held.plannedCount(t.table, projectId)), estimated: true };
  }
}
