'use strict';
// Issue 15: analytics and activity reads over one large project. Emails and events are seeded
// straight into the service's database (set-based INSERT … SELECT, spread over the last 90 days),
// first 500,000 of each, then topped up to 5,000,000 of each; at both sizes the p50 of
// GET /analytics/timeseries (30 days by day), GET /activity/stats and the first page of
// GET /activity is taken through HTTP. Target: each p50 under 100 ms at 5,000,000.
const { Client } = require('pg');
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
        let seeded = 0;
        for (const size of SIZES) {
          const t0 = Date.now();
          await seed(db, project.id, seeded, size);
          seeded = size;
          ctx.log(`${mode}: ${size} emails + ${size} events seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
          const label = `${size / 1_000_000}M`;
          const n = ctx.quick ? 20 : 60;
          const series = await measure(() => get('/analytics/timeseries?interval=day'), n, { warmup: 3 });
          const stats = await measure(() => get('/activity/stats'), n, { warmup: 3 });
          const feed = await measure(() => get('/activity?limit=50'), n, { warmup: 3 });
          const target = size >= 5_000_000 ? { max: 100 } : undefined;
          rows.push(row(`GET /analytics/timeseries 30 d by day p50 (${label} emails+events)`, mode, series.p50, 'ms', target));
          rows.push(row(`GET /activity/stats p50 (${label})`, mode, stats.p50, 'ms', target));
          rows.push(row(`GET /activity first page of 50 p50 (${label})`, mode, feed.p50, 'ms', target));
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
