'use strict';
// Issue 52.7: hours, not minutes. In each mode (services: one ROLE=api and two ROLE=worker
// processes; embedded: one process) a steady mix at half of the capacity measured at the start:
// /v1/send and /v1/track (each at a quarter of its own measured rate, so the pair is at half),
// with 2 workflows and 2 webhook endpoints listening to the tracked event, a campaign to the
// whole audience every 10 minutes, a contact import every minute and dashboard reads; one
// kill -9 of a worker (embedded: of the process, restarted at once) and one 20 s PostgreSQL
// outage (services; a TCP proxy in front of the database drops every connection and refuses new
// ones) in the middle. Per window (5 minutes): RSS and event-loop lag p99 of each process, request
// p99, queue depths, outbox lag and table sizes; at the end, nothing lost and no unbounded growth.
// Writes bench/results/soak-<mode>-<time>.svg (the plot) and .md (its table).
//
// SOAK_MINUTES (default 60): the run's length; every interval above scales with it (a 3-minute
// run has 15 s windows and a campaign every 30 s). SOAK_CAMPAIGN (default 20000): the audience.
// SOAK_OUTAGE_S (default 20): the PostgreSQL outage.
const net = require('node:net');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Client } = require('pg');
const { databaseUrlOf } = require('../lib/database-url');
const { percentile } = require('../lib/measure');
const { _internals: sendSuite } = require('./send');
const { _internals: webhookSuite } = require('./webhooks');

const EVENT = 'soak.event';
const TRACK_POOL = 1_000;
const IMPORT_ROWS = 500;
const IMPORT_POOL = 2_000;
const TABLES = ['emails', 'events', 'contacts', 'email_contents', 'workflow_executions', 'webhook_deliveries'];

/** A TCP proxy to PostgreSQL whose `outage(ms)` drops every connection and refuses new ones for `ms`. */
async function startDatabaseProxy(target) {
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port) => new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = server.address().port;
  return {
    port,
    async outage(ms) {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
      await new Promise((r) => setTimeout(r, ms));
      await listen(port);
    },
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

function rssOf(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    return undefined;
  }
}

/** Sample values of a Prometheus text exposition: name → [{ labels, value }]. */
function parseMetrics(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    if (!out.has(m[1])) out.set(m[1], []);
    out.get(m[1]).push({ labels: m[2] || '', value: Number(m[3]) });
  }
  return out;
}

async function scrape(port) {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(3_000) }).catch(() => null);
  return res && res.ok ? parseMetrics(await res.text()) : new Map();
}

/** Open-loop load: `rate` requests/s of `make(i)` ({ path, body, key }); latencies per window. */
function openLoop(state, name, rate, make) {
  let i = 0;
  let due = 0;
  const started = Date.now();
  const timer = setInterval(() => {
    due = Math.floor(((Date.now() - started) / 1000) * rate);
    while (i < due) {
      const req = make(i++);
      const t0 = performance.now();
      fetch(`${state.base}${req.path}`, {
        method: req.method || 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${req.key}` },
        body: req.body && JSON.stringify(req.body),
        signal: AbortSignal.timeout(30_000),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          state.latencies.push(performance.now() - t0);
          if (res.status < 300) req.accepted?.();
          else state.refused[name] = (state.refused[name] || 0) + 1;
        })
        .catch(() => (state.refused[name] = (state.refused[name] || 0) + 1));
    }
  }, 20);
  return () => clearInterval(timer);
}

async function waitUntil(check, timeoutMs, intervalMs = 1_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** A line plot per series group (RSS MB; lag and request p99 ms) against minutes. */
function svgPlot(title, windows, groups) {
  const W = 760;
  const H = 220;
  const pad = 48;
  const colors = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
  const maxT = Math.max(1, ...windows.map((w) => w.endMin));
  let y0 = 30;
  const parts = [`<text x="${pad}" y="18" font-size="14" font-family="sans-serif">${title}</text>`];
  for (const group of groups) {
    const values = group.series.flatMap((s) => windows.map((w) => s.value(w)).filter((v) => Number.isFinite(v)));
    const maxV = Math.max(1, ...values) * 1.1;
    const x = (t) => pad + (t / maxT) * (W - 2 * pad);
    const y = (v) => y0 + H - 20 - (v / maxV) * (H - 40);
    parts.push(`<text x="${pad}" y="${y0 + 8}" font-size="12" font-family="sans-serif">${group.label} (max axis ${maxV.toFixed(0)})</text>`);
    parts.push(`<line x1="${pad}" y1="${y(0)}" x2="${W - pad}" y2="${y(0)}" stroke="#888"/><line x1="${pad}" y1="${y(0)}" x2="${pad}" y2="${y(maxV)}" stroke="#888"/>`);
    group.series.forEach((s, k) => {
      const pts = windows.map((w) => [w.endMin, s.value(w)]).filter(([, v]) => Number.isFinite(v));
      const color = colors[k % colors.length];
      if (pts.length) parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"/>`);
      parts.push(`<text x="${W - pad - 150}" y="${y0 + 24 + k * 14}" font-size="11" fill="${color}" font-family="sans-serif">${s.name}</text>`);
    });
    for (const w of windows) for (const e of w.marks) parts.push(`<text x="${x(w.endMin) - 20}" y="${y0 + H - 4}" font-size="10" font-family="sans-serif">${e}</text>`);
    parts.push(`<text x="${W - pad}" y="${y0 + H - 4}" font-size="10" font-family="sans-serif" text-anchor="end">${maxT.toFixed(1)} min</text>`);
    y0 += H;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${y0 + 10}" viewBox="0 0 ${W} ${y0 + 10}"><rect width="100%" height="100%" fill="white"/>${parts.join('')}</svg>\n`;
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const rows = [];
  for (const mode of ctx.modes) rows.push(...(await runMode(ctx, mode)));
  return rows;
}

async function runMode(ctx, mode) {
  const { startApp, createProject, projectApi, load, row, sleep } = ctx;
  const minutes = Number(process.env.SOAK_MINUTES || 60);
  const audience = Number(process.env.SOAK_CAMPAIGN || 20_000);
  const outageMs = Number(process.env.SOAK_OUTAGE_S || 20) * 1000;
  const scale = minutes / 60;
  const windowMs = 5 * 60_000 * scale;
  const warmMs = 10 * 60_000 * scale;
  const durationMs = minutes * 60_000;
  const smtp = await sendSuite.startReceiver();
  const hooks = await webhookSuite.startReceiver();
  // Short leases and sweeps so that the emails the kill interrupts are settled within the run,
  // and the webhook retries (loopback endpoints allowed) come within the run.
  const env = {
    EMAIL_TRANSPORT: 'smtp',
    SMTP_URL: smtp.url,
    DOMAIN_VERIFICATION: 'off',
    SEND_LEASE_SECONDS: '30',
    EMAIL_SWEEP_INTERVAL_MS: '5000',
    EMAIL_STRANDED_AFTER_MS: '30000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '1000,2000,4000,8000,15000,30000,60000',
  };
  let proxy;
  const dataDir = mode === 'embedded' ? require('node:fs').mkdtempSync(join(require('node:os').tmpdir(), 'mailroom-soak-')) : undefined;
  const databaseUrl = async (url) => {
    const target = new URL(url);
    proxy = await startDatabaseProxy(target);
    const proxied = new URL(url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    return proxied.toString();
  };
  let app = await startApp(mode === 'services' ? { mode, env, workers: 2, databaseUrl, timeoutMs: 300_000 } : { mode, env, dataDir, timeoutMs: 300_000 }).catch(async (err) => {
    proxy?.close();
    await smtp.close();
    await hooks.close();
    throw err;
  });
  const state = { base: app.url, latencies: [], refused: {} };
  let db;
  const marks = [];
  try {
    const project = await createProject(app.url, 'Soak');
    const call = (method, path, body) => projectApi(state.base, project.secretKey)(method, path, body);
    const dbUrl = await databaseUrlOf(app);
    const query = async (sql, params) => {
      if (!db) {
        db = new Client({ connectionString: mode === 'embedded' ? await databaseUrlOf(app) : dbUrl });
        db.on('error', () => (db = undefined));
        await db.connect();
      }
      return (await db.query(sql, params)).rows;
    };
    await query(
      `INSERT INTO contacts (project_id, email, subscribed, data) SELECT $1, 'c' || g || '@soak.example', true, '{"audience": "soak"}' FROM generate_series(0, $2 - 1) g`,
      [project.id, audience],
    );
    for (let k = 0; k < 2; k++) {
      const wf = await call('POST', '/workflows', { name: `soak ${k}`, eventName: EVENT });
      const step = await call('POST', `/workflows/${wf.id}/steps`, { type: 'EXIT', config: { reason: `soak ${k}` } });
      await call('POST', `/workflows/${wf.id}/transitions`, { fromStepId: wf.steps[0].id, toStepId: step.id });
      await call('PATCH', `/workflows/${wf.id}`, { enabled: true });
      const path = `/hook${k}`;
      const created = await call('POST', '/webhooks', { url: hooks.url(path), events: [EVENT] });
      hooks.secret(path, created.secret);
    }

    // Capacity at the start: each endpoint alone, then each at a quarter of it (the pair at half).
    const sendBody = (i) => ({ to: `s${i}@soak.example`, from: { name: 'Soak', email: 'hello@soak.example.com' }, subject: 'Soak {{n}}', body: '<p>Soak {{n}}</p>', data: { n: i } });
    const trackBody = (i) => ({ email: `t${i % TRACK_POOL}@soak.example`, event: EVENT, data: { i } });
    const probeS = Math.max(3, Math.min(10, minutes));
    // A send's capacity is its delivery's: the API accepts several times what the workers hand
    // over (698/s accepted against a backlog that grew by 45 emails/s at a quarter of that), so
    // the probe's rate is its accepted sends over the time until the last one reached the receiver.
    const receivedBefore = smtp.count;
    const probeStart = Date.now();
    const sendAccepted = await load({ url: app.url, connections: 20, duration: probeS, requests: sendSuite.sendRequestsOf(project.secretKey, 10_000_000, sendBody) });
    const acceptedInProbe = sendAccepted.total - sendAccepted.non2xx - sendAccepted.errors;
    await smtp.waitFor(receivedBefore + acceptedInProbe, 600_000);
    const sendCap = { rps: Math.min(sendAccepted.rps, acceptedInProbe / ((Date.now() - probeStart) / 1000)) };
    ctx.log(`${mode}: /v1/send accepted ${sendAccepted.rps.toFixed(0)}/s, delivered ${sendCap.rps.toFixed(0)}/s`);
    const trackCap = await load({ url: app.url, connections: 20, duration: probeS, requests: [{ method: 'POST', path: '/v1/track', headers: { 'content-type': 'application/json', authorization: `Bearer ${project.publicKey}` }, setupRequest: (r) => ({ ...r, body: JSON.stringify({ ...trackBody(0), event: 'soak.probe' }) }) }] });
    const sendRate = Math.max(1, Math.round(sendCap.rps / 4));
    const trackRate = Math.max(1, Math.round(trackCap.rps / 4));
    ctx.log(`${mode}: capacity send ${sendCap.rps.toFixed(0)}/s, track ${trackCap.rps.toFixed(0)}/s; soak at ${sendRate} + ${trackRate} req/s for ${minutes} min`);
    const trackedBefore = Number((await query(`SELECT count(*) AS n FROM events WHERE project_id = $1 AND name = $2`, [project.id, EVENT]))[0].n);

    const accepted = { sends: [], tracks: 0 };
    const t0 = Date.now();
    const stops = [
      openLoop(state, 'send', sendRate, (i) => ({ path: '/v1/send', key: project.secretKey, body: sendBody(i), accepted: () => accepted.sends.push(i) })),
      openLoop(state, 'track', trackRate, (i) => ({ path: '/v1/track', key: project.publicKey, body: trackBody(i), accepted: () => accepted.tracks++ })),
      openLoop(state, 'read', 2, (i) => ({ method: 'GET', path: ['/campaigns', '/contacts?limit=50', '/emails?limit=50', '/events?limit=50'][i % 4], key: project.secretKey })),
    ];
    const campaigns = [];
    const timers = [];
    const every = (ms, fn) => {
      const tick = () => fn().catch((err) => ctx.log(`${mode}: ${err.message}`));
      timers.push(setInterval(tick, ms));
      tick();
    };
    every(10 * 60_000 * scale, async () => {
      // The seeded audience only: every /v1/send recipient and imported row is a contact too, and
      // "ALL" grew each campaign with them (a 3-minute run's 7 campaigns left 26,626 emails queued).
      const audienceCondition = { logic: 'AND', groups: [{ filters: [{ field: 'data.audience', operator: 'equals', value: 'soak' }] }] };
      const c = (
        await call('POST', '/campaigns', { name: `soak ${campaigns.length}`, subject: 'Soak {{email}}', body: '<p>Soak</p>', from: 'news@soak.example.com', audienceType: 'FILTERED', audienceCondition, type: 'MARKETING' })
      ).data;
      campaigns.push(c.id);
      await call('POST', `/campaigns/${c.id}/send`);
    });
    let imports = 0;
    every(60_000 * scale, async () => {
      const k = imports++;
      const csv = ['email,plan', ...Array.from({ length: IMPORT_ROWS }, (_, i) => `i${(k * IMPORT_ROWS + i) % IMPORT_POOL}@soak.example,p${k % 3}`)].join('\n');
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'soak.csv');
      const res = await fetch(`${state.base}/contacts/import`, { method: 'POST', headers: { authorization: `Bearer ${project.secretKey}` }, body: form });
      if (res.status !== 202) throw new Error(`import → ${res.status}`);
    });

    // The faults, in the middle: a kill -9 at 45% of the run, the outage at 55%.
    const faults = (async () => {
      await sleep(durationMs * 0.45);
      if (mode === 'services') {
        const victim = app.processes().find((p) => p.role === 'worker' && !p.exitInfo);
        marks.push({ at: Date.now() - t0, what: 'kill -9 worker' });
        victim.child.kill('SIGKILL');
        await victim.exited;
        await app.addWorker();
      } else {
        marks.push({ at: Date.now() - t0, what: 'kill -9' });
        app.child.kill('SIGKILL');
        await app.exited;
        await app.stop({ keepData: true });
        db?.end().catch(() => undefined);
        db = undefined;
        app = await startApp({ mode, env, dataDir, timeoutMs: 300_000 });
        state.base = app.url;
      }
      await sleep(Math.max(0, durationMs * 0.55 - (Date.now() - t0)));
      if (proxy) {
        marks.push({ at: Date.now() - t0, what: `PG down ${outageMs / 1000}s` });
        await proxy.outage(outageMs);
      }
    })();

    // Samples every few seconds; a window's figures are the max (lag, RSS) or p99 of its samples.
    const windows = [];
    let samples = [];
    const sampleMs = Math.min(5_000, windowMs / 6);
    let windowStart = Date.now();
    while (Date.now() - t0 < durationMs) {
      await sleep(sampleMs);
      const procs = app.processes().filter((p) => !p.exitInfo);
      const sample = { procs: {}, queues: {} };
      for (const p of procs) {
        const m = await scrape(p.port);
        const lag = m.get('nodejs_eventloop_lag_p99_seconds')?.[0]?.value;
        sample.procs[`${p.role}:${p.child.pid}`] = { rss: rssOf(p.child.pid), lagMs: lag === undefined ? undefined : lag * 1000 };
        if (p === procs[0]) for (const q of m.get('mailroom_queue_depth') || []) sample.queues[q.labels] = (sample.queues[q.labels] || 0) + q.value;
      }
      samples.push(sample);
      if (Date.now() - windowStart >= windowMs || Date.now() - t0 >= durationMs) {
        const lat = state.latencies.splice(0).sort((a, b) => a - b);
        const procs = {};
        for (const s of samples)
          for (const [name, v] of Object.entries(s.procs)) {
            const p = (procs[name] ||= { rss: 0, lagMs: 0 });
            p.rss = Math.max(p.rss, v.rss || 0);
            p.lagMs = Math.max(p.lagMs, v.lagMs || 0);
          }
        const queued = Math.max(0, ...samples.map((s) => Object.values(s.queues).reduce((a, b) => a + b, 0)));
        const outbox = await query(
          `SELECT coalesce(max((SELECT max(seq) FROM events) - c.last_seq), 0) AS behind FROM event_consumer_cursors c`,
        ).catch(() => [{ behind: NaN }]);
        const sizes = await query(`SELECT relname, pg_total_relation_size(c.oid) AS bytes FROM pg_class c WHERE relname = ANY($1) AND relkind = 'r'`, [TABLES]).catch(() => []);
        const endMin = (Date.now() - t0) / 60_000;
        windows.push({
          endMin,
          procs,
          requests: lat.length,
          p99: percentile(lat, 99),
          queued,
          outboxBehind: Number(outbox[0].behind),
          tablesMb: Object.fromEntries(sizes.map((s) => [s.relname, Number(s.bytes) / 1e6])),
          marks: marks.filter((m) => m.at / 60_000 <= endMin && m.at / 60_000 > (windows.at(-1)?.endMin ?? 0)).map((m) => m.what),
        });
        ctx.log(`${mode} ${endMin.toFixed(1)} min: ${JSON.stringify(windows.at(-1))}`);
        samples = [];
        windowStart = Date.now();
      }
    }
    for (const stop of stops) stop();
    for (const t of timers) clearInterval(t);
    await faults;

    // Nothing lost: every accepted email delivered or uncertain, every tracked event at each endpoint.
    const settled = await waitUntil(async () => {
      const r = await query(`SELECT count(*) AS n FROM emails WHERE project_id = $1 AND status IN ('queued', 'sending')`, [project.id]);
      return Number(r[0].n) === 0 ? true : undefined;
    }, Math.max(300_000, durationMs / 4), 2_000);
    const tracked = Number((await query(`SELECT count(*) AS n FROM events WHERE project_id = $1 AND name = $2`, [project.id, EVENT]))[0].n) - trackedBefore;
    const delivered = (k) => hooks.counts(`/hook${k}`, EVENT).distinct;
    await waitUntil(async () => (delivered(0) >= tracked && delivered(1) >= tracked ? true : undefined), Math.max(300_000, durationMs / 4), 2_000);
    const statuses = await query(`SELECT to_address, status FROM emails WHERE project_id = $1 AND campaign_id IS NULL AND to_address LIKE 's%@soak.example'`, [project.id]);
    const statusOf = new Map(statuses.map((r) => [r.to_address, r.status]));
    const lostSends = accepted.sends.filter((i) => !smtp.perRecipient.has(`s${i}@soak.example`) && statusOf.get(`s${i}@soak.example`) !== 'uncertain').length;
    const uncertain = statuses.filter((r) => r.status === 'uncertain').length;
    const campaignRows = await query(
      `SELECT status, count(*) AS n FROM emails WHERE project_id = $1 AND campaign_id = ANY($2::uuid[]) GROUP BY status`,
      [project.id, campaigns],
    );
    const campaignOpen = campaignRows.filter((r) => r.status === 'queued' || r.status === 'sending').reduce((n, r) => n + Number(r.n), 0);
    const lostEvents = Math.max(0, tracked - delivered(0)) + Math.max(0, tracked - delivered(1));

    // No unbounded growth: each process's RSS and lag in its last window against its first after warm-up.
    const after = windows.filter((w) => w.endMin * 60_000 > warmMs);
    const growth = (field) => {
      let worst = 0;
      const names = new Set(after.flatMap((w) => Object.keys(w.procs)));
      for (const name of names) {
        // A process started during the run (the killed worker's successor) warms up from its own start.
        const born = windows.find((w) => w.procs[name]).endMin * 60_000;
        const series = after.filter((w) => w.endMin * 60_000 > born + warmMs).map((w) => w.procs[name]?.[field]).filter((v) => v > 0);
        if (series.length < 2) continue;
        worst = Math.max(worst, series.at(-1) / series[0] - 1);
      }
      return Math.round(worst * 1000) / 10;
    };

    const at = new Date().toISOString().replace(/[:.]/g, '-');
    const dir = join(__dirname, '..', 'results');
    mkdirSync(dir, { recursive: true });
    const names = [...new Set(windows.flatMap((w) => Object.keys(w.procs)))];
    const svg = svgPlot(`soak, ${mode}, ${minutes} min (send ${sendRate}/s, track ${trackRate}/s)`, windows, [
      { label: 'RSS MB per process', series: names.map((n) => ({ name: n, value: (w) => (w.procs[n] ? w.procs[n].rss / 1e6 : NaN) })) },
      { label: 'event-loop lag p99 ms per process, request p99 ms', series: [...names.map((n) => ({ name: `lag ${n}`, value: (w) => w.procs[n]?.lagMs ?? NaN })), { name: 'request p99', value: (w) => w.p99 }] },
    ]);
    const table = [
      `| min | requests | request p99 ms | queued jobs | outbox behind | ${names.map((n) => `RSS MB / lag p99 ms ${n}`).join(' | ')} | tables MB | events |`,
      `|${'---|'.repeat(7 + names.length)}`,
      ...windows.map(
        (w) =>
          `| ${w.endMin.toFixed(1)} | ${w.requests} | ${w.p99?.toFixed(0)} | ${w.queued} | ${w.outboxBehind} | ${names.map((n) => (w.procs[n] ? `${(w.procs[n].rss / 1e6).toFixed(0)} / ${w.procs[n].lagMs.toFixed(0)}` : '')).join(' | ')} | ${Object.entries(w.tablesMb).map(([t, mb]) => `${t} ${mb.toFixed(1)}`).join(', ')} | ${w.marks.join(', ')} |`,
      ),
    ].join('\n');
    writeFileSync(join(dir, `soak-${mode}-${at}.svg`), svg);
    writeFileSync(join(dir, `soak-${mode}-${at}.md`), `${table}\n`);
    ctx.log(`${mode}: wrote bench/results/soak-${mode}-${at}.svg and .md\n${table}`);
    ctx.log(
      `${mode}: accepted sends ${accepted.sends.length} (lost ${lostSends}, uncertain ${uncertain}), tracked ${tracked} (endpoints ${delivered(0)}, ${delivered(1)}), campaigns ${campaigns.length} (unfinished rows ${campaignOpen}), settled ${Boolean(settled)}, refused ${JSON.stringify(state.refused)}`,
    );
    const label = `${minutes} min`;
    return [
      row(`soak ${label}: send + track rate (half of the measured capacity)`, mode, sendRate + trackRate, 'req/s', undefined, { baseline: Math.round(sendCap.rps + trackCap.rps) }),
      row(`soak ${label}: accepted sends neither delivered nor uncertain`, mode, lostSends, '', { max: 0 }),
      row(`soak ${label}: tracked events missing at an endpoint (2 endpoints)`, mode, lostEvents, '', { max: 0 }),
      row(`soak ${label}: campaign emails left queued/sending`, mode, campaignOpen, '', { max: 0 }),
      row(`soak ${label}: RSS growth after warm-up (worst process)`, mode, growth('rss'), '%', { max: 10 }),
      row(`soak ${label}: event-loop lag p99 growth after warm-up (worst process)`, mode, growth('lagMs'), '%', { max: 10 }),
      row(`soak ${label}: request p99 (worst window)`, mode, Math.round(Math.max(...windows.map((w) => w.p99 || 0))), 'ms'),
    ];
  } finally {
    await db?.end().catch(() => undefined);
    await app.stop();
    proxy?.close();
    await smtp.close();
    await hooks.close();
    if (dataDir) require('node:fs').rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { run };
