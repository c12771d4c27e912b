import { Fragment, raw, sql } from '../../../platform/database/sql-fragment';

/**
 * A/B membership of a contact (alias `c`), decided in SQL from the campaign id and the contact id
 * alone, so every batch, worker and restart puts a contact in the same place. The fixed audience
 * is ordered by (a 32-bit slice of md5(campaign id, contact id), contact id); when sending starts
 * the last key of each variant (its cut) is computed once (`AbTestRepository.cuts`): variant i is
 * the keys after cut i-1 up to cut i, the test share every key up to the last cut.
 */
const hashSlice = (campaignId: string, from: number): Fragment =>
  sql`('x' || substr(md5(${campaignId}::text || ':' || c.id::text), ${from}, 8))::bit(32)::bigint`;

/** The contact's hash in the campaign's order (ties go by contact id). */
export const abHashSql = (campaignId: string): Fragment => hashSlice(campaignId, 1);

const hashKeySql = (campaignId: string): Fragment => sql`(${abHashSql(campaignId)}, c.id)`;

/** The last hash key of a variant in the test share; bigint hashes travel as text. */
export interface AbCut {
  h: string;
  id: string;
}

const upTo = (campaignId: string, cut: AbCut): Fragment => sql`${hashKeySql(campaignId)} <= (${cut.h}::bigint, ${cut.id}::text)`;

/** The variants' sizes for a share of `share` contacts among `count` variants: even, the first ones one more when it does not divide. */
export const variantSizes = (share: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => Math.floor(share / count) + (i < share % count ? 1 : 0));

/** The test share: `round(testPercent% × audience)`, at least one per variant, at most the audience. */
export const testShareSize = (audience: number, testPercent: number, count: number): number =>
  Math.min(audience, Math.max(count, Math.round((testPercent * audience) / 100)));

/** A/B state of a campaign: its cuts, or (campaigns started before cuts existed) its seed contacts. */
export interface AbMembership {
  campaignId: string;
  testPercent: number;
  count: number;
  cuts: AbCut[] | null;
  seed: string[] | null;
}

const seedPosition = (seed: string[]): Fragment => sql`array_position(${seed}::text[], c.id::text)`;

/** The contact is in the test share. */
export const inTestShareSql = (m: AbMembership): Fragment => {
  if (m.cuts) return m.cuts.length ? upTo(m.campaignId, m.cuts[m.cuts.length - 1]) : raw('FALSE');
  // Before cuts: a seed, or the hash falls under `testPercent` (in hundredths of a percent).
  return sql`(${seedPosition(m.seed ?? [])} IS NOT NULL OR ${hashSlice(m.campaignId, 1)} % 10000 < ${Math.round(m.testPercent * 100)})`;
};

/** The contact's variant index (0-based), for a contact of the test share. */
export const variantIndexSql = (m: AbMembership): Fragment => {
  if (m.cuts) {
    if (m.cuts.length < 2) return raw('0');
    const whens = m.cuts.slice(0, -1).map((cut, i) => sql`WHEN ${upTo(m.campaignId, cut)} THEN ${raw(String(i))}`);
    return sql`(CASE ${whens.reduce((a, b) => sql`${a} ${b}`)} ELSE ${raw(String(m.cuts.length - 1))} END)`;
  }
  return sql`coalesce(${seedPosition(m.seed ?? [])} - 1, (${hashSlice(m.campaignId, 9)} % ${m.count})::int)`;
};

export const notSql = (f: Fragment): Fragment => sql`NOT ${f}`;

export const andSql = (a: Fragment, b: Fragment): Fragment => sql`(${a}) AND ${b}`;

export const ZERO_SQL = raw('0');
