'use strict';
// Issue 15: analytics and activity reads over one large project. Emails and events are seeded
// straight into the service's database (set-based INSERT … SELECT, spread over the last 90 days),
// first 500,000 of each, then topped up to 5,000,000 of each; at both sizes the p50 of
// GET /analytics/timeseries (30 days by day), GET /activity/stats and the first page of
// GET /activity is taken through HTTP. Target: each p50 under 100 ms at 5,000,000.
// Issue 54: then the partitioning of `events`, `emails` and `email_contents` is reverted (the
// migration's own `down`, rows kept) and the three reads are timed again at 5,000,000 on the plain
// tables, the previous schema, and once more partitioned again, in the same run: the partitioned
// p50 (mean of both) as a share of the plain one (target: no worse, ≤ 100%). The timeseries and
// stats read only the hourly rollup, which partitioning leaves alone: their shares show the noise.
const { join } = require('node:path');
const { Client } = require('pg');
const { ROOT } = require('../lib/build');
const { databaseUrlOf } = require('../lib/database-url');

const SIZES = [500_000, 5_000_000];
const CHUNK = 500_000;
const DAYS = 90;
/** Event names by share: the email lifecycle plus two tracked events. */
const NAMES = `(ARRAY['email.sent','email.sent','email.sent','email.delivery','email.delivery','email.delivery','email.open','email.open','email.click','page-viewed','purchased','email.bounce'])[1 + (g * 7) % 12]`;

async function seed(db, projectId, from, to) {
  for (let start = from; start < to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK);
    await db.query(
      `INSERT INTO emails (project_id, type, from_address, to_address, subject, status, created_at, updated_at, sent_at, delivered_at, opened_at)
       SELECT $1, 'TRANSACTIONAL', 'bench@acme.test', 'r' || (g % 50000) || '@example.com', 'Bench', 'delivered',
              now() - (g % ($4::int * 86400)) * interval '1 second', now(), now(), now(), CASE WHEN g % 3 = 0 THEN now() END
       FROM generate_series($2::int, $3::int - 1) g`,
      [projectId, start, end, DAYS],
    );
    await db.query(
      `INSERT INTO events (project_id, name, data, created_at)
       SELECT $1, ${NAMES}, jsonb_build_object('subject', 'Bench'), now() - (g % ($4::int * 86400)) * interval '1 second'
       FROM generate_series($2::int, $3::int - 1) g`,
      [projectId, start, end, DAYS],
    );
  }
  await db.query('ANALYZE emails');
  await db.query('ANALYZE events');
  await db.query('ANALYZE event_counts_hourly');
}

/**
 * Runs migration 1765500000000's `down` (the previous schema, plain tables) or `up` again over the
 * bench's connection, every row kept, in one transaction.
 */
async function partitioning(db, direction) {
  const { PartitionedHistory1765500000000: Migration } = require(join(ROOT, 'dist', 'migrations', '1765500000000-PartitionedHistory.js'));
  const runner = { query: async (text, params) => (await db.query(text, params)).rows };
  await db.query('BEGIN');
  try {
    await new Migration()[direction](runner);
    await db.query('COMMIT');
  } catch (err) {
    await db.query('ROLLBACK');
    throw err;
  }
  for (const table of ['events', 'emails', 'email_contents']) await db.query(`VACUUM ANALYZE ${table}`);
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, measure, row } = ctx;
  const rows = [];
  for (const mode of ctx.modes) {
    // ROLE=api (services): no event consumers working through the seeded events while reads are timed.
    const app = await startApp({ mode, timeoutMs: 120_000, env: mode === 'services' ? { ROLE: 'api' } : {} });
    try {
      const project = await createProject(app.url);
      const db = new Client({ connectionString: await databaseUrlOf(app) });
      await db.connect();
      const headers = { authorization: `Bearer ${project.secretKey}` };
      const get = async (path) => {
        const res = await fetch(`${app.url}${path}`, { headers });
        if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${await res.text()}`);
        return res.json();
      };
      try {
        const n = ctx.quick ? 20 : 200;
        const reads = async () => ({
          series: await measure(() => get('/analytics/timeseries?interval=day'), n, { warmup: 3 }),
          stats: await measure(() => get('/activity/stats'), n, { warmup: 3 }),
          feed: await measure(() => get('/activity?limit=50'), n, { warmup: 3 }),
        });
        const names = {
          series: (label) => `GET /analytics/timeseries 30 d by day p50 (${label} emails+events)`,
          stats: (label) => `GET /activity/stats p50 (${label})`,
          feed: (label) => `GET /activity first page of 50 p50 (${label})`,
        };
        let seeded = 0;
        let largest = null;
        for (const size of SIZES) {
          const t0 = Date.now();
          await seed(db, project.id, seeded, size);
          seeded = size;
          ctx.log(`${mode}: ${size} emails + ${size} events seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
          const label = `${size / 1_000_000}M`;
          const measured = await reads();
          const target = size >= 5_000_000 ? { max: 100 } : undefined;
          for (const key of Object.keys(names)) rows.push(row(names[key](label), mode, measured[key].p50, 'ms', target));
          largest = { label, measured };
        }
        // The same reads over the same rows in plain tables (the schema before partitioning), then
        // partitioned again: the partitioned figure is the mean of before and after, so a drift
        // of the machine over the run weighs on neither side.
        let t0 = Date.now();
        await partitioning(db, 'down');
        ctx.log(`${mode}: partitioning reverted in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
        const plain = await reads();
        t0 = Date.now();
        await partitioning(db, 'up');
        ctx.log(`${mode}: partitioned again in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
        const again = await reads();
        for (const key of Object.keys(names)) {
          const partitioned = (largest.measured[key].p50 + again[key].p50) / 2;
          const share = Math.round((100 * partitioned) / plain[key].p50);
          ctx.log(`${mode}: ${key} p50 partitioned ${largest.measured[key].p50.toFixed(2)} and ${again[key].p50.toFixed(2)} ms, plain ${plain[key].p50.toFixed(2)} ms`);
          rows.push(
            row(`${names[key](largest.label)} partitioned by month, as a share of the same on plain tables`, mode, share, '%', { max: 100 }, { baseline: Number(plain[key].p50.toFixed(2)), baselineUnit: 'ms' }),
          );
        }
        const sample = await get('/activity/stats');
        ctx.log(`${mode}: stats over 30 days ${JSON.stringify(sample)}`);
      } finally {
        await db.end();
      }
    } finally {
      await app.stop();
    }
  }
  return rows;
}

module.exports = { run };
