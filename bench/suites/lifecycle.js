'use strict';
// Issue 54: the data lifecycle over large projects, one function per figure so the others
// (pruning, analytics over partitions) join as functions of their own.
// - export: 1,000,000 contacts (five typed data keys) seeded set-based by SQL, exported to CSV by
//   `POST /contacts/export`; the service's RSS growth while it runs (target < 100 MB: the export
//   streams, its memory does not grow with the count) and rows/s from the request to `completed`.
//   `--quick` exports 20,000; BENCH_EXPORT_CONTACTS sets the count.
const { Client } = require('pg');
const { databaseUrlOf } = require('../lib/database-url');

const exportCount = (ctx) => Number(process.env.BENCH_EXPORT_CONTACTS || (ctx.quick ? 20_000 : 1_000_000));

async function seedContacts(db, projectId, count) {
  await db.query(
    `INSERT INTO contacts (project_id, email, subscribed, data, created_at, updated_at)
     SELECT $1, 'user' || g || '@example.com', g % 7 <> 0,
            jsonb_build_object('plan', (ARRAY['free','pro','team'])[1 + g % 3], 'score', g % 1000, 'vip', g % 11 = 0,
                               'signupDate', to_char(date '2024-01-01' + (g % 700), 'YYYY-MM-DD'),
                               'note', CASE WHEN g % 13 = 0 THEN 'says "hi", twice' ELSE 'plain' END),
            now() - g * interval '1 second', now() - g * interval '1 second'
     FROM generate_series(1, $2::int) AS g`,
    [projectId, count],
  );
  await db.query(
    `INSERT INTO contact_fields (project_id, key, type)
     VALUES ($1, 'plan', 'string'), ($1, 'score', 'number'), ($1, 'vip', 'boolean'), ($1, 'signupDate', 'date'), ($1, 'note', 'string')
     ON CONFLICT DO NOTHING`,
    [projectId],
  );
  await db.query('VACUUM ANALYZE contacts');
}

/** The export figure in one mode: RSS growth of the service while it exports, and rows/s. */
async function exportFigure(ctx, mode) {
  const { startApp, createProject, row } = ctx;
  const count = exportCount(ctx);
  const app = await startApp({ mode });
  try {
    const project = await createProject(app.url);
    const db = new Client({ connectionString: await databaseUrlOf(app) });
    await db.connect();
    const t0 = Date.now();
    try {
      await seedContacts(db, project.id, count);
    } finally {
      await db.end();
    }
    ctx.log(`${mode}: ${count.toLocaleString()} contacts seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const headers = { authorization: `Bearer ${project.secretKey}`, 'content-type': 'application/json' };
    // Settle after seeding (the embedded database's own memory), then the baseline.
    await new Promise((r) => setTimeout(r, 3000));
    const before = app.rssBytes();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, app.rssBytes())), 50);
    const started = process.hrtime.bigint();
    let job;
    try {
      const res = await fetch(`${app.url}/contacts/export`, { method: 'POST', headers, body: JSON.stringify({ format: 'csv' }) });
      if (res.status !== 202) throw new Error(`export refused: ${res.status} ${await res.text()}`);
      const { jobId } = await res.json();
      for (;;) {
        job = await (await fetch(`${app.url}/contacts/export/${jobId}`, { headers })).json();
        if (job.status === 'completed' || job.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (job.status !== 'completed') throw new Error(`export failed: ${JSON.stringify(job)}`);
    // The file, read as a stream: one line per contact plus the header (records quote no line break here).
    const file = await fetch(`${app.url}${job.downloadUrl}`, { headers });
    let lines = 0;
    let bytes = 0;
    for await (const chunk of file.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const complete = job.rows === count && lines === count + 1;
    ctx.log(`${mode}: ${job.rows.toLocaleString()} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${seconds.toFixed(1)} s; RSS ${(before / 1048576).toFixed(0)} → peak ${(peak / 1048576).toFixed(0)} MB`);
    const label = `export of ${count.toLocaleString()} contacts to CSV`;
    return [
      row(`${label}: service RSS growth`, mode, Math.round((peak - before) / 1048576), 'MB', { max: 100 }),
      row(`${label}: rows/s (request to completed)`, mode, Math.round(count / seconds), 'rows/s'),
      row(`${label}: every contact once in the file`, mode, complete ? 'yes' : 'no', '', 'yes', complete),
    ];
  } finally {
    await app.stop();
  }
}

/** The figures of this suite, each measured in every mode. */
const FIGURES = [exportFigure];

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const rows = [];
  for (const figure of FIGURES) for (const mode of ctx.modes) rows.push(...(await figure(ctx, mode)));
  return rows;
}

module.exports = { run };
