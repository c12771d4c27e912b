import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Fragment, sql } from '../../platform/database/sql-fragment';
import { campaignEmailsSql, CONTACT_COLUMNS, skipReasonSql } from '../emails';
import type { EmailType } from '../emails';
import type { TopicRule } from '../topics';
import type { AbMetric, AbPhase, CampaignStatus } from './entities/campaign.entity';
import { abHashSql, AbCut, testShareSize, variantSizes } from './sql/ab-test.sql';

/** A campaign's A/B state under its row lock, with the fan-out checkpoint (both move together). */
export interface AbLockedState {
  status: CampaignStatus;
  ab_phase: AbPhase | null;
  ab_contents: Record<string, string> | null;
  ab_seed: string[] | null;
  ab_cuts: AbCut[] | null;
  wait_over: boolean | null;
  ab_winner: string | null;
  audience_done: boolean;
  cursor_created_at: string | null;
  cursor_id: string | null;
}

export interface AbVariantCounts {
  variant: string;
  recipients: number;
  delivered: number;
  opened: number;
  clicked: number;
}

/** The A/B test's statements (`engine/ab-test.ts`): its state on the campaign row, the winner and the per-variant counts from the emails. */
@Injectable()
export class AbTestRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async lockState(projectId: string, id: string, em: EntityManager): Promise<AbLockedState | undefined> {
    const [row] = (await em.query(
      `SELECT status, ab_phase, ab_contents, ab_seed, ab_cuts, ab_wait_until <= now() AS wait_over, ab_winner, audience_done,
              cursor_created_at::text AS cursor_created_at, cursor_id
         FROM campaigns WHERE id = $1 AND project_id = $2 FOR UPDATE`,
      [id, projectId],
    )) as AbLockedState[];
    return row;
  }

  /**
   * The test share's cuts (`sql/ab-test.sql.ts`): the contacts of the fixed audience that the recipient
   * policy lets through, in the campaign's hash order; `round(testPercent% × audience)` of them (at least
   * one per variant) split into variants whose sizes differ by at most one; per variant, its last key.
   */
  async cuts(
    projectId: string,
    em: EntityManager,
    a: { campaignId: string; type: EmailType; condition: Fragment; topic: TopicRule | null; fixedAt: string; testPercent: number; count: number },
  ): Promise<AbCut[]> {
    const eligible = sql`FROM contacts c
                       WHERE c.project_id = ${projectId} AND c.created_at <= ${a.fixedAt}::timestamptz AND (${a.condition})
                         AND ${skipReasonSql(a.type, CONTACT_COLUMNS, a.topic)} IS NULL`;
    const counted = sql`SELECT count(*)::int AS n ${eligible}`;
    const [{ n }] = (await em.query(counted.text, counted.values)) as Array<{ n: number }>;
    let end = 0;
    const ranks = variantSizes(testShareSize(n, a.testPercent, a.count), a.count).map((size) => (end += size));
    if (end === 0) return [];
    const ordered = sql`SELECT h::text AS h, id, rn::int AS rn
                          FROM (SELECT h, id, row_number() OVER (ORDER BY h, id) AS rn
                                  FROM (SELECT ${abHashSql(a.campaignId)} AS h, c.id ${eligible}) e) r
                         WHERE rn = ANY(${ranks}::int[])`;
    const rows = (await em.query(ordered.text, ordered.values)) as Array<AbCut & { rn: number }>;
    const byRank = new Map(rows.map((r) => [r.rn, { h: r.h, id: r.id }]));
    return ranks.map((r) => byRank.get(r)!);
  }

  async startTesting(projectId: string, id: string, contents: Record<string, string>, cuts: AbCut[], em: EntityManager): Promise<void> {
    await em.query(`UPDATE campaigns SET ab_phase = 'testing', ab_contents = $3, ab_cuts = $4, updated_at = now() WHERE id = $1 AND project_id = $2`, [
      id,
      projectId,
      JSON.stringify(contents),
      JSON.stringify(cuts),
    ]);
  }

  /** The test share is written: the wait starts now, for the test's `waitMinutes`. */
  async startWaiting(projectId: string, id: string, em: EntityManager): Promise<void> {
    await em.query(
      `UPDATE campaigns SET ab_phase = 'waiting', ab_wait_until = now() + make_interval(mins => (ab_test->>'waitMinutes')::int), updated_at = now()
        WHERE id = $1 AND project_id = $2`,
      [id, projectId],
    );
  }

  /** The winner is known (kept if one was picked already): the rest of the audience is walked from a fresh cursor. */
  async startWinner(projectId: string, id: string, winner: string, em: EntityManager): Promise<void> {
    await em.query(
      `UPDATE campaigns SET ab_phase = 'winner', ab_winner = coalesce(ab_winner, $3), ab_decided_at = coalesce(ab_decided_at, now()),
              cursor_created_at = NULL, cursor_id = NULL, audience_done = false, updated_at = now()
        WHERE id = $1 AND project_id = $2`,
      [id, projectId, winner],
    );
  }

  /** A winner picked by hand while the test share is still being written: used once it is. */
  async setWinner(projectId: string, id: string, winner: string, em: EntityManager): Promise<void> {
    await em.query(`UPDATE campaigns SET ab_winner = $3, ab_decided_at = now(), updated_at = now() WHERE id = $1 AND project_id = $2`, [id, projectId, winner]);
  }

  /**
   * The variant with the highest rate of unique opens (or clicks) among its delivered emails; ties
   * (and variants with nothing delivered, at rate 0) go to the earliest letter.
   */
  async leader(projectId: string, id: string, letters: string[], metric: AbMetric, em: EntityManager): Promise<string> {
    const hit = metric === 'clicks' ? sql`e.clicked_at IS NOT NULL` : sql`e.opened_at IS NOT NULL`;
    const query = sql`
      SELECT l.variant
        FROM unnest(${letters}::text[]) AS l(variant)
        LEFT JOIN (SELECT e.variant, count(*) FILTER (WHERE e.delivered_at IS NOT NULL) AS delivered,
                          count(*) FILTER (WHERE e.delivered_at IS NOT NULL AND ${hit}) AS hits
                     FROM ${campaignEmailsSql(projectId, id)} WHERE e.variant IS NOT NULL GROUP BY e.variant) s ON s.variant = l.variant
       ORDER BY CASE WHEN coalesce(s.delivered, 0) > 0 THEN s.hits::float8 / s.delivered ELSE 0 END DESC, l.variant
       LIMIT 1`;
    const [row] = (await em.query(query.text, query.values)) as Array<{ variant: string }>;
    return row.variant;
  }

  /** Per variant letter: its emails written (skipped ones excluded), delivered, and unique opens and clicks among the delivered. */
  async variantCounts(projectId: string, id: string): Promise<AbVariantCounts[]> {
    const query = sql`
      SELECT e.variant, count(*) FILTER (WHERE e.status <> 'skipped')::int AS recipients, count(e.delivered_at)::int AS delivered,
             count(*) FILTER (WHERE e.delivered_at IS NOT NULL AND e.opened_at IS NOT NULL)::int AS opened,
             count(*) FILTER (WHERE e.delivered_at IS NOT NULL AND e.clicked_at IS NOT NULL)::int AS clicked
        FROM ${campaignEmailsSql(projectId, id)} WHERE e.variant IS NOT NULL GROUP BY e.variant`;
    return (await this.dataSource.query(query.text, query.values)) as AbVariantCounts[];
  }
}
