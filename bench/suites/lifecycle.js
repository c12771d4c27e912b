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
// - prune: /v1/track and /v1/send rates while a month of 5,000,000 events and 1,000,000 emails is
//   pruned by batches, as a share of the rates without pruning in the same run, the longest lock
//   wait on the history tables and the longest prune transaction (services); `--quick`: 300,000
//   events and 60,000 emails (BENCH_PRUNE_EVENTS, BENCH_PRUNE_EMAILS).
const { Client } = require('pg');
const { databaseUrlOf } = require('../lib/database-url');
const { ROOT } = require('../lib/build');
/** The built service's statement (dist/ is built before a suite runs). */
const mergeGinPendingSql = () => require(require('node:path').join(ROOT, 'dist', 'platform', 'database', 'embedded-maintenance.sql.js')).MERGE_GIN_PENDING_SQL;

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
      const size = async () => {
        const [events, emails, contents] = [await tableBytes(db, 'events'), await tableBytes(db, 'emails'), await tableBytes(db, 'email_contents')];
        return { events, emails: emails + contents, emailRows: emails, contents };
      };
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
      ctx.log(
        `${mode}: ${count.toLocaleString()} copies of email ${emailId ?? '?'}: events +${perMillion(after.events - before.events)} MB/M, emails with content +${perMillion(after.emails - before.emails)} MB/M ` +
          `(emails ${perMillion(after.emailRows - before.emailRows)}, content ${perMillion(after.contents - before.contents)})`,
      );
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

const pruneCounts = (ctx) => ({
  events: Number(process.env.BENCH_PRUNE_EVENTS || (ctx.quick ? 300_000 : 5_000_000)),
  emails: Number(process.env.BENCH_PRUNE_EMAILS || (ctx.quick ? 60_000 : 1_000_000)),
});

/**
 * `/v1/track` and `/v1/send` while a month of history is pruned, against the same without pruning,
 * in one run. The month (100 days back) holds the pruned project's events and emails and a few
 * rows of a project that keeps everything, so it cannot be dropped whole: the pruned rows go by
 * batches, the slow case. The retention is switched on in SQL (the round runs every second);
 * a sampler records, in services mode, the longest wait for a lock on `events` or `emails` (or
 * any partition of them) and the longest prune transaction; the embedded database runs one
 * statement at a time, so its stall shows in the requests' worst latency instead.
 */
async function pruneFigure(ctx, mode) {
  const { startApp, createProject, row, load } = ctx;
  const counts = pruneCounts(ctx);
  const app = await startApp({ mode, env: { RETENTION_PRUNE_INTERVAL_MS: '1000' } });
  try {
    const pruned = await createProject(app.url);
    const keeper = await createProject(app.url);
    const db = new Client({ connectionString: await databaseUrlOf(app) });
    await db.connect();
    try {
      const t0 = Date.now();
      const [{ month }] = (await db.query(`SELECT date_trunc('month', (now() - interval '100 days') AT TIME ZONE 'UTC')::date AS month`)).rows;
      for (const table of ['events', 'emails']) await db.query(`SELECT history_partition_ensure($1, $2::date)`, [table, month]);
      const at = `(date_trunc('month', now() - interval '100 days') + (g % 2000000) * interval '1 second')`;
      await db.query(
        `INSERT INTO events (project_id, name, data, created_at)
         SELECT $1, CASE WHEN g % 3 = 0 THEN 'email.open' ELSE 'signed-up' END, jsonb_build_object('n', g), ${at} FROM generate_series(1, $2::int) g`,
        [pruned.id, counts.events],
      );
      await db.query(`INSERT INTO events (project_id, name, created_at) SELECT $1, 'signed-up', ${at} FROM generate_series(1, 100) g`, [keeper.id]);
      await db.query(
        `INSERT INTO emails (project_id, type, from_address, to_address, subject, status, created_at, sent_at)
         SELECT $1, 'TRANSACTIONAL', 'a@example.com', 'r' || g || '@example.com', 'Hello', 'sent', ${at}, ${at} FROM generate_series(1, $2::int) g`,
        [pruned.id, counts.emails],
      );
      await db.query(
        `INSERT INTO emails (project_id, type, from_address, to_address, subject, status, created_at) SELECT $1, 'TRANSACTIONAL', 'a@example.com', 'k@example.com', 'Hello', 'sent', ${at} FROM generate_series(1, 10) g`,
        [keeper.id],
      );
      for (const t of ['events', 'emails']) await db.query(`VACUUM ANALYZE ${t}`);
      // History this old was read by the event outbox's consumers (webhooks, workflows, metrics)
      // when it was new: their cursors move past the seeded rows, or reading that backlog would
      // fall into one of the measured phases (it did: /v1/track read 75-80% or 185%).
      const moved = await db.query(`UPDATE event_consumer_cursors SET last_seq = greatest(last_seq, (SELECT max(seq) FROM events))`);
      ctx.log(`${mode}: ${moved.rowCount} event consumers' cursors moved past the seeded history`);
      ctx.log(`${mode}: ${counts.events.toLocaleString()} events and ${counts.emails.toLocaleString()} emails seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

      // Each request a new contact (as a busy project's traffic is), numbered across both phases.
      let n = 0;
      const requestsOf = (path, key, bodyOf) => [
        { method: 'POST', path, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: JSON.stringify(bodyOf(n++)) }) },
      ];
      const phase = { url: app.url, connections: 20, duration: ctx.quick ? 8 : 20 };
      const track = { ...phase, requests: requestsOf('/v1/track', pruned.secretKey, (i) => ({ event: 'clicked', email: `load${i}@example.com` })) };
      const send = { ...phase, requests: requestsOf('/v1/send', keeper.secretKey, (i) => ({ to: `load${i}@example.com`, from: 'hello@example.com', subject: 'Hi', body: '<p>Hi</p>' })) };
      // Each phase starts once the sends before it are handed over (their pipeline work would
      // otherwise fall into the next phase's measurement).
      const settled = async () => {
        for (let i = 0; i < 600; i++) {
          const { rows } = await db.query(`SELECT count(*)::int AS n FROM emails WHERE project_id = $1 AND status IN ('queued', 'sending')`, [keeper.id]);
          if (rows[0].n === 0) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        // Every phase starts from the same upkeep: the tables analyzed and the GIN indexes' pending
        // lists merged (the embedded database's maintenance, every 30 s, otherwise fell into one
        // phase or another: /v1/track read 918 req/s before it and 2,855 after).
        await db.query('ANALYZE');
        await db.query(mergeGinPendingSql());
        await new Promise((r) => setTimeout(r, 1000));
      };
      const measured = async () => {
        await settled();
        const t = await load(track);
        await settled();
        return { track: t, send: await load(send) };
      };
      await load({ ...track, duration: 1 });
      await load({ ...send, duration: 1 });
      const baseline = await measured();

      // Retention on: the next round (within a second) starts pruning the month by batches.
      const remaining = async () => Number((await db.query(`SELECT (SELECT count(*) FROM events WHERE project_id = $1) + (SELECT count(*) FROM emails WHERE project_id = $1) AS n`, [pruned.id])).rows[0].n);
      const before = await remaining();
      await db.query(`UPDATE projects SET retention = '{"eventsDays": 30, "emailsDays": 30}'::jsonb WHERE id = $1`, [pruned.id]);
      const sample = { lockWaitMs: 0, pruneTxMs: 0 };
      let sampling = mode === 'services';
      const sampler = (async () => {
        const watch = new Client({ connectionString: await databaseUrlOf(app) });
        await watch.connect();
        try {
          while (sampling) {
            const { rows } = await watch.query(
              `SELECT coalesce(max(CASE WHEN NOT l.granted THEN extract(epoch FROM clock_timestamp() - a.query_start) * 1000 END), 0) AS wait,
                      coalesce(max(CASE WHEN a.query ILIKE 'DELETE FROM "e%' THEN extract(epoch FROM clock_timestamp() - a.xact_start) * 1000 END), 0) AS prune
                 FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid
                  AND l.relation IN (SELECT relid FROM pg_partition_tree('events') UNION ALL SELECT relid FROM pg_partition_tree('emails'))
                WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()`,
            );
            sample.lockWaitMs = Math.max(sample.lockWaitMs, Number(rows[0].wait));
            sample.pruneTxMs = Math.max(sample.pruneTxMs, Number(rows[0].prune));
            await new Promise((r) => setTimeout(r, 20));
          }
        } finally {
          await watch.end();
        }
      })();
      await new Promise((r) => setTimeout(r, 1500));
      const startedAt = Date.now();
      const during = await measured();
      const pruningSeconds = (Date.now() - startedAt) / 1000;
      const after = await remaining();
      sampling = false;
      await sampler;
      const stillPruning = after > 0;
      for (const [phase, r] of Object.entries({ 'track without': baseline.track, 'send without': baseline.send, 'track while pruning': during.track, 'send while pruning': during.send })) {
        if (r.non2xx || r.errors) ctx.log(`${mode}: ${phase}: ${r.non2xx} non-2xx, ${r.errors} errors ${JSON.stringify(r.statusCodes)}`);
      }
      const perSecond = (r) => `per second min ${r.raw.requests.min}, mean ${Math.round(r.raw.requests.mean)}, max ${r.raw.requests.max}`;
      ctx.log(`${mode}: track ${perSecond(baseline.track)} → ${perSecond(during.track)}; send ${perSecond(baseline.send)} → ${perSecond(during.send)}`);
      ctx.log(
        `${mode}: pruned ${(before - after).toLocaleString()} rows in the ${pruningSeconds.toFixed(0)} s measured (${after.toLocaleString()} left); ` +
          `track ${Math.round(baseline.track.rps)} → ${Math.round(during.track.rps)} req/s (max ${baseline.track.raw.latency.max} → ${during.track.raw.latency.max} ms), ` +
          `send ${Math.round(baseline.send.rps)} → ${Math.round(during.send.rps)} req/s; lock wait ${sample.lockWaitMs.toFixed(0)} ms, prune tx ${sample.pruneTxMs.toFixed(0)} ms`,
      );
      const label = `while ${counts.events.toLocaleString()} events + ${counts.emails.toLocaleString()} emails are pruned by batches`;
      // Rates of answered requests (2xx): a refusal is not throughput.
      const okRate = (r) => (r.total > 0 ? (r.rps * (r.total - r.non2xx - r.errors)) / r.total : 0);
      const share = (d, b) => Math.round((100 * okRate(d)) / okRate(b));
      const rows = [
        row(`POST /v1/track rate ${label} (share of the rate without)`, mode, share(during.track, baseline.track), '%', { min: 90 }, { baseline: Math.round(okRate(baseline.track)), baselineUnit: 'req/s' }),
        row(`POST /v1/send rate ${label} (share of the rate without)`, mode, share(during.send, baseline.send), '%', { min: 90 }, { baseline: Math.round(okRate(baseline.send)), baselineUnit: 'req/s' }),
        row(`POST /v1/track worst latency ${label}`, mode, during.track.raw.latency.max, 'ms', '', { baseline: baseline.track.raw.latency.max }),
        row(`non-2xx answers and errors of /v1/track and /v1/send ${label}`, mode, during.track.non2xx + during.track.errors + during.send.non2xx + during.send.errors, 'count', { max: 0 }),
        row(`pruning went on through the measurement (rows left after it)`, mode, after, 'rows', '> 0', stillPruning),
        row(`rows pruned per second ${label}`, mode, Math.round((before - after) / pruningSeconds), 'rows/s'),
      ];
      if (mode === 'services') {
        rows.push(row(`longest wait for a lock on events or emails ${label}`, mode, Math.round(sample.lockWaitMs), 'ms', { max: 100 }));
        rows.push(row(`longest prune transaction ${label}`, mode, Math.round(sample.pruneTxMs), 'ms', { max: 100 }));
      }
      return rows;
    } finally {
      await db.end();
    }
  } finally {
    await app.stop();
  }
}

/** The figures of this suite, each measured in every mode. */
const FIGURES = [exportFigure, storageFigure, pruneFigure];

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
