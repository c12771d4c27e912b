import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { empty, Fragment, sql } from '../../platform/database/sql-fragment';
import type { Campaign } from './entities/campaign.entity';
import { nextOpeningSql, unwrittenSql } from './engine/release-schedule.sql';

/** The schedule's columns of a campaign row, with the database's `now()`. */
export interface ReleaseScheduleRow {
  now: Date;
  release_moment: Date | null;
  wave_started_at: Date | null;
  wave_written: number;
  next_batch_at: Date | null;
}

type SendingWindow = NonNullable<NonNullable<Campaign['delivery']>['window']>;

/**
 * The release schedule's statements (`engine/release-schedule.ts`): its state on the campaign row
 * (`release_moment`, `wave_*`, `next_batch_at`), the zone names PostgreSQL knows, and the moments
 * and counts it reads from the audience.
 */
@Injectable()
export class ReleaseScheduleRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Zone names PostgreSQL accepts in `AT TIME ZONE`. */
  async zoneNames(): Promise<string[]> {
    const rows = (await this.dataSource.query(`SELECT name FROM pg_timezone_names`)) as Array<{ name: string }>;
    return rows.map((r) => r.name);
  }

  /** The wall-clock time `wall` in `zone`. */
  async momentIn(wall: string, zone: string): Promise<Date> {
    const [row] = (await this.dataSource.query(`SELECT ($1::timestamp AT TIME ZONE $2::text) AS at`, [wall, zone])) as Array<{ at: Date }>;
    return row.at;
  }

  /**
   * The earliest `moment` among contacts `c` of `audience` (with `unwritten`, only those without an
   * email of campaign `campaignId`), or null when there are none.
   */
  async firstMoment(
    projectId: string,
    campaignId: string,
    moment: Fragment,
    audience: Fragment,
    opts: { unwritten: boolean; em?: EntityManager },
  ): Promise<Date | null> {
    const query = sql`SELECT min(${moment}) AS at FROM contacts c WHERE ${audience} ${opts.unwritten ? sql`AND ${unwrittenSql(projectId, campaignId)}` : empty}`;
    const [row] = (await (opts.em ?? this.dataSource.manager).query(query.text, query.values)) as Array<{ at: Date | null }>;
    return row.at;
  }

  async state(projectId: string, id: string): Promise<ReleaseScheduleRow> {
    const [row] = (await this.dataSource.query(
      `SELECT now() AS now, release_moment, wave_started_at, wave_written, next_batch_at FROM campaigns WHERE id = $1 AND project_id = $2`,
      [id, projectId],
    )) as ReleaseScheduleRow[];
    return row;
  }

  /** The earliest instant at or after `from` inside `window`, or null when none is found within the week. */
  async nextOpening(from: Date, window: SendingWindow): Promise<Date | null> {
    const query = nextOpeningSql(sql`${from.toISOString()}::timestamptz`, window);
    const [row] = (await this.dataSource.query(query.text, query.values)) as Array<{ at: Date | null }>;
    return row.at;
  }

  async setReleaseMoment(projectId: string, id: string, moment: Date): Promise<void> {
    await this.set(projectId, id, sql`release_moment = ${moment}::timestamptz`);
  }

  /** When the next batch may go (null: now), for stats and the dashboard. */
  async setNextBatchAt(projectId: string, id: string, at: Date | null): Promise<void> {
    await this.set(projectId, id, at ? sql`next_batch_at = ${at.toISOString()}::timestamptz` : sql`next_batch_at = NULL`);
  }

  async startWave(projectId: string, id: string): Promise<void> {
    await this.set(projectId, id, sql`wave_count = wave_count + 1, wave_started_at = now(), wave_written = 0, next_batch_at = NULL`);
  }

  /** In the batch's transaction: `inserted` more emails written by the current wave. */
  async addWaveWritten(projectId: string, id: string, inserted: number, em: EntityManager): Promise<void> {
    await em.query(`UPDATE campaigns SET wave_written = wave_written + $3 WHERE id = $1 AND project_id = $2`, [id, projectId, inserted]);
  }

  /** In the batch's transaction: release up to `moment` (never back), the walk starting over from a fresh cursor. */
  async releaseNext(projectId: string, id: string, moment: Date, em: EntityManager): Promise<void> {
    await em.query(
      `UPDATE campaigns SET release_moment = greatest(release_moment, $3::timestamptz), cursor_created_at = NULL, cursor_id = NULL, audience_done = false
        WHERE id = $1 AND project_id = $2`,
      [id, projectId, moment],
    );
  }

  /** How many contacts `c` of `audience` have no email of the campaign yet, and `next_batch_at` when it is still ahead. */
  async waiting(projectId: string, id: string, audience: Fragment): Promise<{ waiting: number; nextBatchAt: Date | null }> {
    const query = sql`SELECT count(*)::int AS n, (SELECT next_batch_at FROM campaigns WHERE id = ${id}::uuid AND next_batch_at > now()) AS next
                        FROM contacts c WHERE ${audience} AND ${unwrittenSql(projectId, id)}`;
    const [row] = (await this.dataSource.query(query.text, query.values)) as Array<{ n: number; next: Date | null }>;
    return { waiting: row.n, nextBatchAt: row.next };
  }

  private async set(projectId: string, id: string, assignments: Fragment): Promise<void> {
    const query = sql`UPDATE campaigns SET ${assignments} WHERE id = ${id}::uuid AND project_id = ${projectId}::uuid`;
    await this.dataSource.query(query.text, query.values);
  }
}
