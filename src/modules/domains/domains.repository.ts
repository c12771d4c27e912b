import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { Domain } from './entities/domain.entity';
import type { WarmupStatusRow } from './domains.rows';
import { TODAY_UTC, WARMUP_CAP, WARMUP_COMPLETE_DAY, WARMUP_DAY } from './warmup/warmup-cap.sql';

export type WarmupSettings = Pick<Domain, 'warmupEnabled' | 'warmupStartPerDay' | 'warmupGrowthPercent' | 'warmupMaxPerDay'>;

/** Day 0 of the schedule shown: the warm-up's own start, or today for a preview while it is off. */
const SCHEDULE_START = `CASE WHEN d.warmup_enabled THEN (d.warmup_started_at AT TIME ZONE 'UTC')::date ELSE ${TODAY_UTC} END`;
const SCHEDULE_FIRST = `CASE WHEN d.warmup_enabled THEN GREATEST(${WARMUP_DAY()}, 0) ELSE 0 END`;

/** Today's figures and the next two weeks' caps, with the gate's own expressions (warmup-cap.sql.ts). */
const WARMUP_STATUS_SQL = `
  SELECT d.id,
         CASE WHEN d.warmup_enabled THEN ${WARMUP_DAY()} END AS day,
         CASE WHEN d.warmup_enabled THEN ${WARMUP_CAP(WARMUP_DAY())} END AS cap_today,
         CASE WHEN d.warmup_enabled THEN coalesce(k.sent, 0) END AS sent_today,
         CASE WHEN d.warmup_enabled THEN ((d.warmup_started_at AT TIME ZONE 'UTC')::date + ${WARMUP_COMPLETE_DAY()})::timestamp AT TIME ZONE 'UTC' END AS complete_at,
         (SELECT json_agg(json_build_object('day', n, 'date', to_char(${SCHEDULE_START} + n, 'YYYY-MM-DD'), 'cap', ${WARMUP_CAP('n')}) ORDER BY n)
            FROM generate_series(${SCHEDULE_FIRST}, ${SCHEDULE_FIRST} + 13) AS n) AS schedule
    FROM domains d
    LEFT JOIN domain_send_counts k ON k.domain_id = d.id AND k.day = ${TODAY_UTC}
   WHERE d.project_id = $1 AND d.id = ANY($2::uuid[])`;

export type NewDomain = Pick<Domain, 'domain' | 'status' | 'sesIdentity' | 'dkimSelector' | 'dkimPrivateKey' | 'dkimPublicKey'>;

/** The domains module's table: domains. A domain name has one owner across all projects. */
@Injectable()
export class DomainsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get domains() {
    return this.dataSource.getRepository(Domain);
  }

  /** A row of the project, not yet stored (`insert` stores it and fills its id and timestamps). */
  build(projectId: string, values: NewDomain): Domain {
    return this.domains.create({ ...values, projectId });
  }

  async insert(projectId: string, row: Domain): Promise<void> {
    await this.domains.insert(Object.assign(row, { projectId }));
  }

  /** Whether any project claimed this domain name (one owner per name). */
  isClaimedByAnyProject(domain: string): Promise<boolean> {
    return this.domains.existsBy({ domain });
  }

  async hasAny(projectId: string, status?: 'verified'): Promise<boolean> {
    return (await this.domains.count({ where: { projectId, ...(status ? { status } : {}) } })) > 0;
  }

  list(projectId: string): Promise<Domain[]> {
    return this.domains.find({ where: { projectId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findOne(projectId: string, id: string): Promise<Domain | null> {
    return this.domains.findOneBy({ projectId, id });
  }

  async delete(projectId: string, id: string): Promise<void> {
    await this.domains.delete({ projectId, id });
  }

  /** Whether one of these names is a verified domain of the project. */
  hasVerifiedAmong(projectId: string, names: string[]): Promise<boolean> {
    return this.domains.existsBy({ projectId, domain: In(names), status: 'verified' });
  }

  /** The project's domains among these names (verified ones only unless `anyStatus`), with their DKIM keys. */
  signingCandidates(projectId: string, names: string[], anyStatus: boolean): Promise<Array<Pick<Domain, 'id' | 'domain' | 'dkimSelector' | 'dkimPrivateKey'>>> {
    return this.domains.find({
      where: { projectId, domain: In(names), ...(anyStatus ? {} : { status: 'verified' as const }) },
      select: { id: true, domain: true, dkimSelector: true, dkimPrivateKey: true },
    });
  }

  /** Where each domain's warm-up stands today (UTC), by id. */
  async warmupStatus(projectId: string, ids: string[]): Promise<Map<string, WarmupStatusRow>> {
    if (ids.length === 0) return new Map();
    const rows: WarmupStatusRow[] = await this.dataSource.query(WARMUP_STATUS_SQL, [projectId, ids]);
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** New warm-up settings; turning it on starts day 0 today, turning it off clears the start. */
  async saveWarmup(projectId: string, id: string, settings: WarmupSettings): Promise<void> {
    await this.dataSource.query(
      `UPDATE domains SET warmup_enabled = $3, warmup_start_per_day = $4, warmup_growth_percent = $5, warmup_max_per_day = $6,
              warmup_started_at = CASE WHEN NOT $3 THEN NULL WHEN warmup_enabled THEN warmup_started_at ELSE now() END
        WHERE project_id = $1 AND id = $2`,
      [projectId, id, settings.warmupEnabled, settings.warmupStartPerDay, settings.warmupGrowthPercent, settings.warmupMaxPerDay],
    );
  }

  /** A check's outcome. */
  async saveCheck(projectId: string, id: string, outcome: Pick<Domain, 'records' | 'status' | 'verifiedAt' | 'lastCheckedAt'>): Promise<void> {
    await this.domains.update({ projectId, id }, outcome);
  }

  /**
   * Inbound mail's routing, across projects: the projects owning a verified domain (any domain
   * with `anyStatus`) that is, or is a parent of, each recipient's domain, with the recipients
   * each one gets. One statement whatever the number of addresses.
   */
  receivingAcrossProjects(addresses: string[], anyStatus: boolean): Promise<Array<{ project_id: string; address: string }>> {
    return this.dataSource.query(
      `SELECT DISTINCT d.project_id, r.address
         FROM unnest($1::text[]) AS r(address)
         JOIN domains d ON (d.status = 'verified' OR $2)
          AND (split_part(r.address, '@', 2) = d.domain OR right(split_part(r.address, '@', 2), length(d.domain) + 1) = '.' || d.domain)`,
      [addresses, anyStatus],
    );
  }

  /** Keyset page of domains of every project not checked in the last 4 minutes, for the background round. */
  dueForCheckAcrossProjects(afterId: string | null, limit: number): Promise<Domain[]> {
    const query = this.domains
      .createQueryBuilder('d')
      .where(`(d.last_checked_at IS NULL OR d.last_checked_at < now() - interval '4 minutes')`)
      .orderBy('d.id', 'ASC')
      .limit(limit);
    if (afterId) query.andWhere('d.id > :afterId', { afterId });
    return query.getMany();
  }
}
