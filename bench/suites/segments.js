'use strict';
// Issue 12: segments over 1,000,000 contacts (10 data keys of mixed types) and 5,000,000 events,
// seeded set-based with generate_series straight into the service's database.
// - count of a 3-filter dynamic segment (numeric data comparison, string contains, event
//   triggeredWithin 30 days): p50 < 300 ms on PostgreSQL; the same count as a plain sequential
//   scan (the floor) is printed beside it; the same count with a 4th filter on a topic
//   (`topics.news equals true`, an opt_out topic that 20% of contacts left) is measured in the
//   same run (goal: within 10% of the 3-filter count);
// - first page of GET /segments/:id/contacts: p50 < 50 ms;
// - compute of a tracked segment where 10,000 contacts enter and 10,000 leave: < 5 s, peak RSS.
// BENCH_SEGMENT_CONTACTS / BENCH_SEGMENT_EVENTS scale it down for a quick look.
const { Client } = require('pg');
const { databaseUrlOf } = require('../lib/database-url');

const CONTACTS = Number(process.env.BENCH_SEGMENT_CONTACTS || 1_000_000);
const EVENTS = Number(process.env.BENCH_SEGMENT_EVENTS || 5_000_000);
const TOPIC_FILTER = { field: 'topics.news', operator: 'equals', value: true };
const THREE_FILTERS = {
  logic: 'AND',
  groups: [
    {
      filters: [
        { field: 'data.score', operator: 'gt', value: 500 },
        { field: 'data.city', operator: 'contains', value: 'ber' },
        { field: 'event.purchase', operator: 'triggeredWithin', value: 30, unit: 'days' },
      ],
    },
  ],
};

async function seed(db, projectId) {
  await db.query(
    `INSERT INTO contacts (project_id, email, subscribed, topics, data, created_at, updated_at)
     SELECT $1, 'user' || g || '@example.com', g % 7 <> 0,
            CASE g % 5 WHEN 0 THEN '{"news": false}'::jsonb WHEN 1 THEN '{"news": true}'::jsonb ELSE '{}'::jsonb END,
            jsonb_build_object(
              'score', g % 1000, 'plan', (ARRAY['free','pro','team'])[1 + g % 3],
              'city', (ARRAY['Berlin','Paris','Bern','Lisbon','Oslo','Madrid','Rome','Vienna'])[1 + g % 8],
              'vip', g % 11 = 0, 'signupDate', to_char(date '2024-01-01' + (g % 700), 'YYYY-MM-DD'),
              'age', 18 + g % 60, 'country', (ARRAY['DE','FR','CH','PT','NO'])[1 + g % 5],
              'balance', (g % 10000) / 100.0, 'newsletter', g % 2 = 0, 'tier', 'tier-' || (g % 5)),
            now() - g * interval '1 second', now() - g * interval '1 second'
     FROM generate_series(1, $2::int) AS g`,
    [projectId, CONTACTS],
  );
  // Events: ids of the seeded contacts in order, events spread over the last 120 days.
  await db.query(
    `WITH ids AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM contacts WHERE project_id = $1)
     INSERT INTO events (project_id, contact_id, name, data, created_at)
     SELECT $1, ids.id, (ARRAY['purchase','page_view','signup','login','click'])[1 + e % 5], '{}'::jsonb,
            now() - ((e * 7919) % (120 * 24 * 60)) * interval '1 minute'
     FROM generate_series(1::bigint, $2::bigint) AS e JOIN ids ON ids.n = 1 + (e * 48271) % $3`,
    [projectId, EVENTS, CONTACTS],
  );
  // What autovacuum does to insert-only tables shortly after a bulk load (PostgreSQL 13+): without
  // it the visibility map is empty and no index-only scan of events pays off.
  await db.query('VACUUM ANALYZE contacts');
  await db.query('VACUUM ANALYZE events');
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, projectApi, measure, row } = ctx;
  const rows = [];
  for (const mode of ctx.modes) {
    const app = await startApp({ mode, env: { SEGMENT_QUERY_TIMEOUT_MS: '60000' } });
    try {
      const project = await createProject(app.url);
      const db = new Client({ connectionString: await databaseUrlOf(app) });
      await db.connect();
      try {
        const t0 = Date.now();
        await seed(db, project.id);
        ctx.log(`${mode}: seeded ${CONTACTS} contacts and ${EVENTS} events in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        const call = projectApi(app.url, project.secretKey);
        await call('POST', '/topics', { name: 'News', default: 'opt_out' });
        const segment = await call('POST', '/segments', { name: 'Bench three filters', condition: THREE_FILTERS });
        const withTopic = JSON.parse(JSON.stringify(THREE_FILTERS));
        withTopic.groups[0].filters.push(TOPIC_FILTER);
        const topicSegment = await call('POST', '/segments', { name: 'Bench three filters and a topic', condition: withTopic });
        ctx.log(`${mode}: with the topic filter it has ${topicSegment.memberCount} members`);
        ctx.log(`${mode}: 3-filter segment has ${segment.memberCount} members`);
        const count = await measure(() => call('POST', `/segments/${segment.id}/refresh`), ctx.quick ? 5 : 15);
        rows.push(row(`segment count, 3 filters (${CONTACTS / 1e6}M contacts, ${EVENTS / 1e6}M events) p50`, mode, count.p50, 'ms', { max: 300 }));
        const topicCount = await measure(() => call('POST', `/segments/${topicSegment.id}/refresh`), ctx.quick ? 5 : 15);
        rows.push(row('segment count, the 3 filters and topics.news (same run) p50', mode, topicCount.p50, 'ms'));
        rows.push(row('topic filter cost: 4-filter count / 3-filter count', mode, Math.round((topicCount.p50 / count.p50) * 100), '%', { max: 110 }));
        const scan = await measure(async () => {
          await db.query('SET enable_indexscan = off; SET enable_bitmapscan = off');
          await db.query(`SELECT count(*) FROM contacts WHERE project_id = $1 AND (data->>'score')::int > 500 AND data->>'city' ILIKE '%ber%'`, [project.id]);
          await db.query('RESET enable_indexscan; RESET enable_bitmapscan');
        }, ctx.quick ? 3 : 5);
        rows.push(row('plain sequential scan of contacts (2 data filters, the floor) p50', mode, scan.p50, 'ms'));
        // Cold: each call follows a change of the definition (score > 500, 501, …), so the page
        // counts its total live, as every call did before counts were reused (page-totals.ts).
        let threshold = 500;
        const cold = [];
        for (let i = 0; i < (ctx.quick ? 3 : 7); i++) {
          const condition = JSON.parse(JSON.stringify(THREE_FILTERS));
          condition.groups[0].filters[0].value = ++threshold;
          await call('PATCH', `/segments/${segment.id}`, { condition });
          const t = process.hrtime.bigint();
          await call('GET', `/segments/${segment.id}/contacts?pageSize=20`);
          cold.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        cold.sort((a, b) => a - b);
        rows.push(row('GET /segments/:id/contacts first page, total counted live (each call after a definition change) p50', mode, cold[Math.floor(cold.length / 2)], 'ms'));
        const page = await measure(() => call('GET', `/segments/${segment.id}/contacts?pageSize=20`), ctx.quick ? 10 : 30);
        rows.push(row('GET /segments/:id/contacts first page, paging on (the count reused up to 30 s) p50', mode, page.p50, 'ms', { max: 50 }));

        // Tracked segment over score: first compute stores everyone, then 10,000 enter and 10,000 leave.
        const tracked = await call('POST', '/segments', {
          name: 'Bench tracked',
          trackMembership: true,
          condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.score', operator: 'lt', value: 100 }] }] },
        });
        await call('POST', `/segments/${tracked.id}/compute`);
        await db.query(`UPDATE contacts SET data = data || '{"score": 5000}' WHERE id IN (SELECT id FROM contacts WHERE project_id = $1 AND (data->>'score')::int < 100 ORDER BY id LIMIT 10000)`, [project.id]);
        await db.query(`UPDATE contacts SET data = data || '{"score": 1}' WHERE id IN (SELECT id FROM contacts WHERE project_id = $1 AND (data->>'score')::int BETWEEN 200 AND 999 ORDER BY id LIMIT 10000)`, [project.id]);
        let peak = app.rssBytes();
        const sampler = setInterval(() => (peak = Math.max(peak, app.rssBytes())), 50);
        const c0 = Date.now();
        const result = await call('POST', `/segments/${tracked.id}/compute`);
        const computeMs = Date.now() - c0;
        clearInterval(sampler);
        ctx.log(`${mode}: compute ${JSON.stringify(result)} in ${computeMs} ms`);
        rows.push(row(`compute, ${result.entered} enter / ${result.exited} leave`, mode, computeMs, 'ms', { max: 5000 }));
        rows.push(row('compute peak RSS of the service', mode, Math.round(peak / 1024 / 1024), 'MB'));
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
