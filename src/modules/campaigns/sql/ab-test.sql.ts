import { Fragment, raw, sql } from '../../../platform/database/sql-fragment';

/**
 * A/B membership of a contact (alias `c`), decided in SQL from the campaign id and the contact id
 * alone, so every batch, worker and restart puts a contact in the same place: two independent
 * 32-bit slices of md5(campaign id, contact id). The seeds (the first eligible contacts of the
 * fixed audience, one per variant) are always in the test share, seed i in variant i.
 */
const hashSlice = (campaignId: string, from: number): Fragment =>
  sql`('x' || substr(md5(${campaignId}::text || ':' || c.id::text), ${from}, 8))::bit(32)::bigint`;

const seedPosition = (seed: string[]): Fragment => sql`array_position(${seed}::text[], c.id::text)`;

/** The contact is in the test share: a seed, or its hash falls under `testPercent` (in hundredths of a percent). */
export const inTestShareSql = (campaignId: string, testPercent: number, seed: string[]): Fragment =>
  sql`(${seedPosition(seed)} IS NOT NULL OR ${hashSlice(campaignId, 1)} % 10000 < ${Math.round(testPercent * 100)})`;

/** The contact's variant index (0-based) among `count` variants, for a contact of the test share. */
export const variantIndexSql = (campaignId: string, count: number, seed: string[]): Fragment =>
  sql`coalesce(${seedPosition(seed)} - 1, (${hashSlice(campaignId, 9)} % ${count})::int)`;

export const notSql = (f: Fragment): Fragment => sql`NOT ${f}`;

export const andSql = (a: Fragment, b: Fragment): Fragment => sql`(${a}) AND ${b}`;

export const ZERO_SQL = raw('0');
