import { Injectable } from '@nestjs/common';
import type { HistoryTable } from '../../../platform/database/history-partitions';
import type { RetentionKind } from './retention-policy';

/**
 * Deletes (or clears) up to `limit` of the project's records of its kind made before `before`,
 * and at or after `from` when given (what an earlier round or batch already pruned), oldest first,
 * in one short transaction; answers how many it handled (fewer than `limit`: none are left in the
 * range) and, for a resuming pruner, the creation time of the last one (the next batch starts there).
 */
export interface PruneBatch {
  count: number;
  lastAt?: Date | null;
}

export interface RetentionPruner {
  /** Names the pruner in logs. */
  name: string;
  kind: RetentionKind;
  /** Records per call (each call one short transaction). */
  batchSize: number;
  /**
   * Whether a round may start where an earlier one reached (`range.from`): for a pruner that
   * clears records rather than deleting them, whose walk would otherwise pass over every record
   * it already cleared. A deleting pruner finds nothing before its cutoff and always walks all.
   */
  resumes?: boolean;
  /**
   * A history table partitioned by month (`HistoryPartitions`) that this pruner deletes from:
   * before its batches, a round drops whole the months every owner of whose rows lets go.
   */
  partitioned?: HistoryTable;
  /**
   * After a round's whole-month drops of `partitioned` (whether any month went or not): what goes
   * with those months and lives in another table (the emails' content months), the owner's to drop.
   */
  afterMonthDrops?(): Promise<void>;
  prune(projectId: string, range: { from: Date | null; before: Date }, limit: number): Promise<PruneBatch>;
}

/**
 * A table holding a project's rows (a `project_id` column), shown by `GET /users/@me/projects/:id/storage`.
 * `count`: `indexed` when an index leads with `project_id` (an index-only count, bounded, with the
 * planner's estimate past the bound), or `estimated` for the planner's estimate alone (no such
 * index: a count would read the whole table).
 * `oldest`: a timestamp column an index led by `project_id` orders, or the owner's own read.
 */
export interface HeldTable {
  /** The name the answer gives it (`events`, `emailContents`, …). */
  name: string;
  table: string;
  count: 'indexed' | 'estimated';
  oldest?: string | ((projectId: string) => Promise<Date | null>);
}

/**
 * Where the modules owning a project's data plug in what retention prunes and what the storage
 * view measures, so this module (below them in the layers) never names their tables in code of its
 * own (docs/architecture.md, "Layers"). `RetentionPrune` runs the pruners; `DataHeldService`
 * measures the tables.
 */
@Injectable()
export class RetentionRegistry {
  private readonly prunerList: RetentionPruner[] = [];
  private readonly tableList: HeldTable[] = [];

  registerPruner(pruner: RetentionPruner): void {
    if (this.prunerList.some((p) => p.name === pruner.name)) throw new Error(`the retention pruner ${pruner.name} is registered twice`);
    this.prunerList.push(pruner);
  }

  registerTable(table: HeldTable): void {
    if (this.tableList.some((t) => t.name === table.name)) throw new Error(`the held table ${table.name} is registered twice`);
    this.tableList.push(table);
  }

  pruners(): readonly RetentionPruner[] {
    return this.prunerList;
  }

  tables(): readonly HeldTable[] {
    return this.tableList;
  }
}
