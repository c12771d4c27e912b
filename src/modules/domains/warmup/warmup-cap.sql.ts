/**
 * The warm-up's arithmetic, written once, in SQL (docs/delivery-control.md, "Domain warm-up"):
 * the gate, the counter and `GET /domains/:id` all use these expressions, so what the API shows
 * is what the gate applies.
 */

/** The current UTC date: warm-up days and the send counters are UTC days. */
export const TODAY_UTC = `(now() AT TIME ZONE 'UTC')::date`;

/** Day n of a domain's warm-up (alias `d`): today minus the UTC date it was enabled (day 0). */
export const WARMUP_DAY = (d = 'd'): string => `(${TODAY_UTC} - (${d}.warmup_started_at AT TIME ZONE 'UTC')::date)`;

/** Past this many days the growth stops being computed (ten years): the cap is then the cap of that day. */
const MAX_DAYS = 3_650;

/**
 * The cap of day `n` (an SQL integer expression) for a domain (alias `d`):
 * floor(startPerDay × (1 + growthPercent/100)^n), at most `maxPerDay` and at most 2^31 − 1.
 * Numeric, not float: an integer power of an exact decimal is exact, so day 1 of 50 at 50 % is 75, never 74.
 */
export const WARMUP_CAP = (n: string, d = 'd'): string =>
  `LEAST(floor(${d}.warmup_start_per_day * power(1 + ${d}.warmup_growth_percent / 100.0, LEAST(GREATEST(${n}, 0), ${MAX_DAYS})))::numeric,
         coalesce(${d}.warmup_max_per_day, 2147483647), 2147483647)::int`;

/**
 * The first day whose cap reaches `maxPerDay` (null without one): the closed form's candidate and
 * its neighbours, checked with the exact expression above, so rounding never disagrees with the gate.
 */
export const WARMUP_COMPLETE_DAY = (d = 'd'): string =>
  `(SELECT min(i) FROM generate_series(
       GREATEST(ceil(ln(${d}.warmup_max_per_day::float8 / ${d}.warmup_start_per_day) / ln(1 + ${d}.warmup_growth_percent / 100.0))::int - 1, 0),
       GREATEST(ceil(ln(${d}.warmup_max_per_day::float8 / ${d}.warmup_start_per_day) / ln(1 + ${d}.warmup_growth_percent / 100.0))::int + 1, 0)) AS i
     WHERE ${d}.warmup_max_per_day IS NOT NULL AND ${WARMUP_CAP('i', d)} >= ${d}.warmup_max_per_day)`;

/** SQL: the sender address in `from` is at the domain `d.domain` or one of its subdomains (display-name form included). */
export const SENDER_AT_DOMAIN = (from: string, d = 'd'): string =>
  `(lower(rtrim(split_part(${from}, '@', 2), '> ')) = ${d}.domain OR lower(rtrim(split_part(${from}, '@', 2), '> ')) LIKE '%.' || ${d}.domain)`;

/**
 * The one count of mail handed in (transactional and other mail a cap never holds): an
 * `INSERT … ON CONFLICT` adding, per warming domain covering the sender, the rows of `source`
 * (a FROM item, alias `r`, with `project_id` and `from_address`) to today's counter. Used as a CTE
 * of the emails' own INSERT, so it costs no round trip; counters are upserted in domain order,
 * so concurrent writers lock them in the same order.
 */
export const countHandedInSql = (source: string, where: string): string =>
  `INSERT INTO domain_send_counts AS k (domain_id, day, sent)
   SELECT d.id, ${TODAY_UTC}, count(*)::int
     FROM ${source}
     JOIN domains d ON d.project_id = r.project_id AND d.warmup_enabled AND ${SENDER_AT_DOMAIN('r.from_address')}
    WHERE ${where}
    GROUP BY d.id ORDER BY d.id
   ON CONFLICT (domain_id, day) DO UPDATE SET sent = k.sent + EXCLUDED.sent`;
