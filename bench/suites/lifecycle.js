'use strict';
// Issue 54: the data lifecycle over large projects, one function per figure so the others
// (pruning, analytics over partitions) join as functions of their own.
// - export: 1,000,000 contacts (five typed data keys) seeded set-based by SQL, exported to CSV by
//   `POST /contacts/export`; the service's RSS growth while it runs (target < 100 MB: the export
//   streams, its memory does not grow with the count) and rows/s from the request to `completed`.
//   `--quick` exports 20,000; BENCH_EXPORT_CONTACTS sets the count.
// - storage: bytes on disk per 1,000,000 events and per 1,000,000 sent emails (content included),
//   from rows made through the API and copied set-based; `--quick` copies 50,000, else 500,000
//   (BENCH_STORAGE_ROWS).
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

const storageCount = (ctx) => Number(process.env.BENCH_STORAGE_ROWS || (ctx.quick ? 50_000 : 500_000));

const paragraph = '<p style="font-family:Arial">Hello {{firstName}}, here is what happened in your account this week. Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>';
const BODY = `<html><body>${paragraph.repeat(25)}<p>Plan: {{plan ?? "free"}}</p></body></html>`;

/** Bytes on disk of a table and, when partitioned, of all its partitions (heap, TOAST, indexes). */
async function tableBytes(db, table) {
  const { rows } = await db.query(`SELECT coalesce(sum(pg_total_relation_size(relid)), 0)::bigint AS bytes FROM pg_partition_tree($1::regclass)`, [table]);
  return Number(rows[0].bytes);
}

/**
 * Storage per 1,000,000 events and per 1,000,000 sent emails, content included, so a user can size
 * a disk. One event (`POST /v1/track`) and one email (`POST /v1/send`, the send bench's ~4 KB HTML,
 * sent through the outbox transport) are made through the API; their rows are then copied
 * set-based (new ids, each email with its own content row, as a send request has) up to the count,
 * and the tables' growth on disk (after VACUUM ANALYZE) is scaled to a million.
 */
async function storageFigure(ctx, mode) {
  const { startApp, createProject, row } = ctx;
  const count = storageCount(ctx);
  const app = await startApp({ mode });
  try {
    const project = await createProject(app.url);
    const headers = { authorization: `Bearer ${project.secretKey}`, 'content-type': 'application/json' };
    const post = async (path, body) => {
      const res = await fetch(`${app.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    await post('/v1/track', { event: 'signed-up', email: 'storage@example.com', data: { plan: 'pro', source: 'landing', step: 3 } });
    const sent = await post('/v1/send', { to: 'storage@example.com', from: { name: 'Bench', email: 'hello@bench.example.com' }, subject: 'Your week, {{firstName}}', body: BODY, data: { firstName: 'Ann', plan: 'pro' } });
    const emailId = sent.data?.emails?.[0]?.email?.id ?? sent.emails?.[0]?.email?.id ?? sent.data?.emails?.[0]?.id;
    const db = new Client({ connectionString: await databaseUrlOf(app) });
    await db.connect();
    try {
      for (let i = 0; i < 300; i++) {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM emails WHERE project_id = $1 AND status IN ('sent', 'delivered')`, [project.id]);
        if (rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const size = async () => ({ events: await tableBytes(db, 'events'), emails: (await tableBytes(db, 'emails')) + (await tableBytes(db, 'email_contents')) });
      for (const t of ['events', 'emails', 'email_contents']) await db.query(`VACUUM ANALYZE ${t}`);
      const before = await size();
      await db.query(
        `INSERT INTO events (project_id, contact_id, name, data)
         SELECT e.project_id, e.contact_id, e.name, e.data FROM events e, generate_series(1, $2::int) g
          WHERE e.id = (SELECT id FROM events WHERE project_id = $1 AND name = 'signed-up' LIMIT 1)`,
        [project.id, count],
      );
      await db.query(
        `WITH one AS (SELECT * FROM emails WHERE project_id = $1 AND status IN ('sent', 'delivered') LIMIT 1),
              copies AS (SELECT g, gen_random_uuid() AS content_id FROM generate_series(1, $2::int) g),
              contents AS (
                INSERT INTO email_contents (id, project_id, template_id, subject, body, liquid, markdown, text, from_name, reply_to, headers, attachments, topic_id)
                SELECT k.content_id, c.project_id, c.template_id, c.subject, c.body, c.liquid, c.markdown, c.text, c.from_name, c.reply_to, c.headers, c.attachments, c.topic_id
                  FROM copies k, email_contents c WHERE c.id = (SELECT content_id FROM one))
         INSERT INTO emails (project_id, contact_id, type, from_address, to_address, to_name, subject, variables, status, message_id, provider_message_id,
                             attempts, track_opens, track_clicks, sent_at, delivered_at, content_id, source)
         SELECT o.project_id, o.contact_id, o.type, o.from_address, 'r' || k.g || '@example.com', o.to_name, o.subject, o.variables, o.status,
                '<' || k.g || o.message_id, o.provider_message_id, o.attempts, o.track_opens, o.track_clicks, o.sent_at, o.delivered_at, k.content_id, o.source
           FROM one o, copies k`,
        [project.id, count],
      );
      for (const t of ['events', 'emails', 'email_contents']) await db.query(`VACUUM ANALYZE ${t}`);
      const after = await size();
      const perMillion = (bytes) => Math.round(((bytes / count) * 1_000_000) / 1048576);
      ctx.log(`${mode}: ${count.toLocaleString()} copies of email ${emailId ?? '?'}: events +${perMillion(after.events - before.events)} MB/M, emails with content +${perMillion(after.emails - before.emails)} MB/M`);
      return [
        row('storage per 1,000,000 events (indexes included)', mode, perMillion(after.events - before.events), 'MB', ''),
        row('storage per 1,000,000 sent emails (content and indexes included)', mode, perMillion(after.emails - before.emails), 'MB', ''),
      ];
    } finally {
      await db.end();
    }
  } finally {
    await app.stop();
  }
}

/** The figures of this suite, each measured in every mode. */
const FIGURES = [exportFigure, storageFigure];

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const rows = [];
  // BENCH_LIFECYCLE=export,storage: only these figures (named by their function, without "Figure").
  const only = (process.env.BENCH_LIFECYCLE || '').split(',').filter(Boolean);
  const figures = FIGURES.filter((f) => only.length === 0 || only.includes(f.name.replace(/Figure$/, '')));
  for (const figure of figures) for (const mode of ctx.modes) rows.push(...(await figure(ctx, mode)));
  return rows;
}

module.exports = { run };
