import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A name filter over the rollup: a name in `anyOf` or (with `noneOf`) a name outside it. */
export interface RollupNames {
  anyOf?: string[];
  noneOf?: string[];
}

/**
 * The activity module's table: event_counts_hourly, the hourly rollup of events per name (kept
 * by the events table's triggers), whose size grows with hours and names, not with events.
 */
@Injectable()
export class ActivityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Events of the project with these names (all without a filter). */
  async total(projectId: string, names: RollupNames | undefined): Promise<number> {
    const params: unknown[] = [projectId];
    const tests: string[] = [];
    if (names?.anyOf) tests.push(`name = ANY($${params.push(names.anyOf)}::text[])`);
    if (names?.noneOf) tests.push(`name <> ALL($${params.push(names.noneOf)}::text[])`);
    const [row]: Array<{ total: string | null }> = await this.dataSource.query(
      `SELECT sum(count)::bigint AS total FROM event_counts_hourly WHERE project_id = $1${tests.length ? ` AND (${tests.join(' OR ')})` : ''}`,
      params,
    );
    return Number(row.total ?? 0);
  }

  /** Each name's count over the hours from `from`'s hour up to `to`. */
  async totalsByName(projectId: string, from: Date, to: Date): Promise<Array<{ name: string; total: number }>> {
    const rows: Array<{ name: string; total: string }> = await this.dataSource.query(
      `SELECT name, sum(count)::bigint AS total FROM event_counts_hourly
       WHERE project_id = $1 AND hour >= date_trunc('hour', $2::timestamptz, 'UTC') AND hour < $3::timestamptz
       GROUP BY name`,
      [projectId, from.toISOString(), to.toISOString()],
    );
    return rows.map((r) => ({ name: r.name, total: Number(r.total) }));
  }

  /** The names the project has counted events of. */
  async presentNames(projectId: string): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.dataSource.query(`SELECT DISTINCT name FROM event_counts_hourly WHERE project_id = $1 AND count > 0`, [projectId]);
    return rows.map((r) => r.name);
  }

  /**
   * Per UTC bucket of `interval` ('hour' or 'day') from `from`'s bucket to `to`'s, every bucket
   * present (null where nothing was counted), the count of each series' event name.
   */
  async series<K extends string>(
    projectId: string,
    interval: 'hour' | 'day',
    range: { from: Date; to: Date },
    series: Record<K, string>,
  ): Promise<Array<Record<K, string | null> & { date: Date }>> {
    const keys = Object.keys(series) as K[];
    const step = interval === 'hour' ? '1 hour' : '24 hours';
    const sums = keys.map((key) => `sum(count) FILTER (WHERE name = '${series[key]}') AS ${key}`).join(', ');
    return this.dataSource.query(
      `SELECT b AS date, ${keys.map((key) => `x.${key}`).join(', ')}
       FROM generate_series(date_trunc($2, $3::timestamptz, 'UTC'), $4::timestamptz - interval '1 microsecond', $5::interval) b
       LEFT JOIN (
         SELECT date_trunc($2, hour, 'UTC') AS bucket, ${sums}
         FROM event_counts_hourly
         WHERE project_id = $1 AND name = ANY($6::text[]) AND hour >= date_trunc('hour', $3::timestamptz, 'UTC') AND hour < $4::timestamptz
         GROUP BY 1
       ) x ON x.bucket = b
       ORDER BY b`,
      [projectId, interval, range.from.toISOString(), new Date(Math.max(range.to.getTime(), range.from.getTime() + 1)).toISOString(), step, keys.map((key) => series[key])],
    );
  }

  /** The most counted names outside `excluded` over the range, most first. */
  async topNames(projectId: string, range: { from: Date; to: Date }, excluded: string[], limit: number): Promise<Array<{ name: string; count: number }>> {
    const rows: Array<{ name: string; count: string }> = await this.dataSource.query(
      `SELECT name, sum(count)::bigint AS count FROM event_counts_hourly
       WHERE project_id = $1 AND name <> ALL($4::text[]) AND hour >= date_trunc('hour', $2::timestamptz, 'UTC') AND hour < $3::timestamptz
       GROUP BY name HAVING sum(count) > 0 ORDER BY 2 DESC, 1 LIMIT $5`,
      [projectId, range.from.toISOString(), range.to.toISOString(), excluded, limit],
    );
    return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
  }
}
