import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { yieldToApi } from '../http/api-load';
import { logger } from '../logging/logger';
import { PeriodicWorker } from '../queues/periodic-worker';
import { MERGE_GIN_PENDING_SQL, maintenanceSql, TABLE_ACTIVITY_SQL, type TableActivity } from './embedded-maintenance.sql';

/** PostgreSQL's autovacuum defaults: a table is vacuumed or analyzed past these. */
export const AUTOVACUUM_DEFAULTS = {
  vacuumThreshold: 50,
  vacuumScaleFactor: 0.2,
  insertThreshold: 1000,
  insertScaleFactor: 0.2,
  analyzeThreshold: 50,
  analyzeScaleFactor: 0.1,
};

/** How long a statement waits for the API to fall idle before it runs anyway. */
const API_IDLE_WAIT_MS = 10_000;

/** What autovacuum would do to a table now: vacuum it (with analyze), analyze it, or nothing. */
export function maintenanceOf(table: TableActivity, t = AUTOVACUUM_DEFAULTS): 'vacuum' | 'analyze' | null {
  if (table.deadTuples > t.vacuumThreshold + t.vacuumScaleFactor * table.tuples) return 'vacuum';
  if (table.insertedSinceVacuum > t.insertThreshold + t.insertScaleFactor * table.tuples) return 'vacuum';
  if (table.modifiedSinceAnalyze > t.analyzeThreshold + t.analyzeScaleFactor * table.tuples) return 'analyze';
  return null;
}

/**
 * Autovacuum's work for the embedded database, which has none (PGlite is one single-user
 * session): every `EMBEDDED_MAINTENANCE_INTERVAL_MS`, the GIN indexes' pending lists merged, then
 * `VACUUM (ANALYZE)` or `ANALYZE` of each table past autovacuum's default thresholds. Without it
 * dead rows were never reclaimed, the planner's statistics aged, index-only scans never began and
 * every search read the GIN pending lists whole. The one session runs every statement in turn, so
 * each waits (up to 10 s) until the process has no HTTP request in flight. Provided by
 * `DatabaseModule` in embedded mode only.
 */
@Injectable()
export class EmbeddedMaintenance extends PeriodicWorker {
  private readonly log = logger('embedded-maintenance');

  constructor(
    @InjectConfig() config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    super(config, 'embedded-maintenance', config.embeddedMaintenanceIntervalMs > 0 ? config.embeddedMaintenanceIntervalMs : null);
  }

  protected async round(): Promise<void> {
    await yieldToApi(API_IDLE_WAIT_MS, 1);
    await this.dataSource.query(MERGE_GIN_PENDING_SQL);
    const tables = (await this.dataSource.query(TABLE_ACTIVITY_SQL)) as TableActivity[];
    for (const table of tables) {
      const work = maintenanceOf(table);
      if (work === null) continue;
      if (this.stopped) return;
      await yieldToApi(API_IDLE_WAIT_MS, 1);
      if (this.stopped) return;
      const startedAt = Date.now();
      await this.dataSource.query(maintenanceSql(work, table.name));
      this.log.debug({ table: table.name, work, ms: Date.now() - startedAt }, 'table maintained');
    }
  }
}
