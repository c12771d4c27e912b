'use strict';
// Issue 3: `GET /contacts?search=` over 200,000 contacts of one project, p50 target < 50 ms; the
// search covers the email and the string field `plan` (issue 38).
// Contacts are seeded straight into the service's database (set-based INSERT … SELECT), then the
// endpoint is timed through HTTP for a rotating set of search terms of different selectivity.
const { Client } = require('pg');
const { databaseUrlOf } = require('../lib/database-url');

const CONTACTS = 200_000;
/** Terms from rare to common: a full local part, a name fragment, a surname, a domain. */
const TERMS = ['olivia.garcia1234', 'noah.sm', 'martinez', 'liam', 'mail-7.test', 'ZZZ-no-match', 'ava.j'];

async function seed(databaseUrl, projectId, count) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO contacts (project_id, email, subscribed, data, created_at, updated_at)
       SELECT $1,
              (ARRAY['olivia','noah','liam','emma','ava','sophia','james','lucas','mia','ethan'])[1 + g % 10] || '.' ||
              (ARRAY['smith','johnson','garcia','martinez','brown','davis','miller','wilson','moore','taylor','anderson','thomas','jackson'])[1 + (g / 10) % 13] ||
              g::text || '@' || (ARRAY['example.com','mail-' || (g % 20)::text || '.test','corp.example.org','inbox.example.net'])[1 + g % 4],
              g % 3 <> 0,
              jsonb_build_object('plan', (ARRAY['free','pro','team'])[1 + g % 3], 'visits', g % 100),
              now() - g * interval '1 second', now() - g * interval '1 second'
       FROM generate_series(1, $2::int) AS g`,
      [projectId, count],
    );
    // The keys' types, as the service registers them: `plan` is a string field, so every search
    // with a word also tests the data (the words index and the exact per-field test).
    await db.query(`INSERT INTO contact_fields (project_id, key, type) VALUES ($1, 'plan', 'string'), ($1, 'visits', 'number') ON CONFLICT DO NOTHING`, [projectId]);
  } finally {
    await db.end();
  }
}

/**
 * Waits for the deployment's own maintenance to vacuum the seeded table, as it would after any
 * bulk write: PostgreSQL's autovacuum (services), the service's `EmbeddedMaintenance` (embedded,
 * every `EMBEDDED_MAINTENANCE_INTERVAL_MS`, default 30 s). The vacuum merges the GIN indexes'
 * pending entries, which every search reads otherwise, and sets the visibility map the counts'
 * index-only scans need. A PostgreSQL with autovacuum off (this machine's is) gets its work
 * done here: `VACUUM (ANALYZE) contacts`. Returns the seconds waited.
 */
async function maintained(databaseUrl, since, mode) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows: setting } = await db.query(`SELECT current_setting('autovacuum') = 'off' AS off`);
    if (mode === 'services' && setting[0].off) await db.query('VACUUM (ANALYZE) contacts');
    for (const started = Date.now(); Date.now() - started < 180_000; await new Promise((r) => setTimeout(r, 500))) {
      const { rows } = await db.query(
        `SELECT greatest(last_vacuum, last_autovacuum) > $1 AS done FROM pg_stat_user_tables WHERE relname = 'contacts' AND schemaname = 'public'`,
        [new Date(since)],
      );
      if (rows[0]?.done) return (Date.now() - since) / 1000;
    }
    throw new Error('contacts was not vacuumed within 180 s of the seed');
  } finally {
    await db.end();
  }
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, measure, row } = ctx;
  const rows = [];
  for (const mode of ctx.modes) {
    const app = await startApp({ mode });
    try {
      const project = await createProject(app.url);
      const t0 = Date.now();
      await seed(await databaseUrlOf(app), project.id, CONTACTS);
      const seededAt = Date.now();
      ctx.log(`${mode}: seeded ${CONTACTS} contacts in ${((seededAt - t0) / 1000).toFixed(1)} s`);
      ctx.log(`${mode}: vacuumed by the deployment's maintenance ${(await maintained(await databaseUrlOf(app), seededAt, mode)).toFixed(1)} s after`);
      const headers = { authorization: `Bearer ${project.secretKey}` };
      const get = async (query) => {
        const res = await fetch(`${app.url}/contacts?${query}`, { headers });
        if (res.status !== 200) throw new Error(`GET /contacts?${query} → ${res.status}: ${await res.text()}`);
        return res.json();
      };
      const first = await get('search=martinez');
      ctx.log(`${mode}: search=martinez total ${first.total}, page ${first.data.length}`);
      const n = ctx.quick ? 70 : 210;
      const search = await measure((i) => get(`search=${encodeURIComponent(TERMS[i % TERMS.length])}`), n);
      rows.push(row(`GET /contacts?search= p50 (${CONTACTS / 1000}k contacts, ${TERMS.length} terms)`, mode, search.p50, 'ms', { max: 50 }));
      rows.push(row('GET /contacts?search= p99', mode, search.p99, 'ms'));
      // Worst case: a term in three of four addresses, so the first page's total counts ~150,000 rows.
      const broad = await measure(() => get('search=example'), ctx.quick ? 10 : 30);
      rows.push(row('GET /contacts?search=example (matches ~150k) p50', mode, broad.p50, 'ms'));
      const page = await measure(() => get('limit=100'), ctx.quick ? 20 : 60);
      rows.push(row('GET /contacts first page (limit 100, with total) p50', mode, page.p50, 'ms'));
      const next = await measure(() => get(`cursor=${first.cursor}&search=martinez`), ctx.quick ? 20 : 60);
      rows.push(row('GET /contacts?search= next page (no count) p50', mode, next.p50, 'ms'));
    } finally {
      await app.stop();
    }
  }
  return rows;
}

module.exports = { run };
