'use strict';
// Issue 16 ("embedded weight"): the embedded mode's RSS idle and after load, and its cost per
// request, side by side: as it ran before (PostgreSQL's 128 MB buffer pool, plain node), with the
// 16 MB buffer pool (EMBEDDED_DB_BUFFERS_MB), plus the malloc thresholds of scripts/service-env.js,
// a bound on V8's old generation (384 MB, growing factor 2: what `npm start` did before the idle
// collector), and as `npm start` runs it (malloc thresholds and the idle collector,
// src/platform/memory/idle-collector.ts: scripts/service-env.js), so each measure's share
// shows. BENCH_MEMORY_CONFIGS=3,5 runs only those configurations (1-based);
// BENCH_MEMORY_ROUNDS=3 runs the chosen ones that many times, interleaved, for pairs taken close
// together; BENCH_MEMORY_TRY="--flag …" adds `npm start` plus those node flags as a last
// configuration, to compare a V8 option side by side. Each configuration:
// a cold start on a fresh data dir; the median RSS of the 10 s after one minute idle (V8's memory
// reducer has run by then); loads of a fixed size at 50 connections (GET /v1/ping, POST /v1/track,
// POST /v1/send into the outbox) with the service's CPU time per 1,000 requests, which holds
// steadier than req/s on a shared machine; the peak RSS during them, and the RSS 70 s after.
// Issue 36 item 11: the peak RSS of the first start (fresh data dir: the database is created;
// the kernel's VmHWM, start to a minute after) and, once the loads are done, of a restart on the
// same data dir, with their ratio and the seconds each took to answer /health.

const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { processCpuMs } = require('../lib/cpu');
const { sendRequests } = require('./send')._internals;
const { trackRequests } = require('./track')._internals;

const MALLOC = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
const CONFIGS = [
  { label: 'before: buffers 128 MB', plainNode: true, env: { EMBEDDED_DB_BUFFERS_MB: '128' } },
  { label: '+ buffers 16 MB', plainNode: true, env: {} },
  { label: '+ malloc thresholds', plainNode: true, env: MALLOC },
  // What `npm start` did until 2026-11-24, for comparison: V8's old generation bounded.
  { label: 'instead: old generation 384 MB, growing factor 2', plainNode: true, env: { ...MALLOC, NODE_OPTIONS: '--max-old-space-size=384' }, nodeArgs: ['--heap-growing-percent=100'] },
  { label: 'npm start: + idle collector (--expose-gc)', env: {} },
];
if (process.env.BENCH_MEMORY_TRY) {
  CONFIGS.push({ label: `npm start + ${process.env.BENCH_MEMORY_TRY}`, env: {}, nodeArgs: process.env.BENCH_MEMORY_TRY.split(/\s+/).filter(Boolean) });
}
const chosen = (process.env.BENCH_MEMORY_CONFIGS || '').split(',').filter(Boolean).map(Number);
const rounds = Math.max(1, Number(process.env.BENCH_MEMORY_ROUNDS || 1));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (bytes) => Math.round(bytes / 1048576);
/** The process's peak resident set size since it started (Linux's VmHWM). */
const peakRssBytes = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, row, sleep } = ctx;
  const rows = [];
  const configs = CONFIGS.filter((_, i) => chosen.length === 0 || chosen.includes(i + 1));
  const idleWait = ctx.quick ? 20_000 : 50_000;
  for (const { label, env, plainNode, nodeArgs } of Array.from({ length: rounds }, () => configs).flat()) {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-bench-memory-'));
    try {
      const firstPeak = await loadsAfterAFirstStart(ctx, rows, { label, env, plainNode, nodeArgs, dataDir, idleWait });
      const restart = await startApp({ mode: 'embedded', env, plainNode, nodeArgs, dataDir });
      try {
        await sleep(idleWait + 10_000);
        const restartPeak = peakRssBytes(restart.pid);
        rows.push(row('restart (same data dir): seconds to /health', label, Number((restart.startupMs / 1000).toFixed(1)), 's'));
        rows.push(row('restart (same data dir): peak RSS, start to a minute after', label, mb(restartPeak), 'MB'));
        rows.push(row('first start peak / restart peak', label, Number((firstPeak / restartPeak).toFixed(2)), '×', { max: 1.25 }, { baseline: mb(restartPeak), baselineUnit: 'MB' }));
      } finally {
        await restart.stop({ keepData: true });
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return rows;
}

/** One configuration's first start on `dataDir` (empty), its idle figures and its loads; returns the first start's peak RSS. */
async function loadsAfterAFirstStart(ctx, rows, { label, env, plainNode, nodeArgs, dataDir, idleWait }) {
  const { startApp, createProject, load, row, sleep } = ctx;
  const scale = ctx.quick ? 0.25 : 1;
  const app = await startApp({ mode: 'embedded', env, plainNode, nodeArgs, dataDir });
  try {
    await sleep(idleWait);
    const samples = [];
    for (let i = 0; i < 10; i++) {
      samples.push(app.rssBytes());
      await sleep(1000);
    }
    rows.push(row('idle RSS (a minute after a cold start)', label, mb(median(samples)), 'MB', { max: 300 }));
    const firstPeak = peakRssBytes(app.pid);
    rows.push(row('first start (fresh data dir): seconds to /health', label, Number((app.startupMs / 1000).toFixed(1)), 's'));
    rows.push(row('first start (fresh data dir): peak RSS, start to a minute after', label, mb(firstPeak), 'MB', { max: 510 }));

    const project = await createProject(app.url);
    let peak = app.rssBytes();
    const sampler = setInterval(() => (peak = Math.max(peak, app.rssBytes())), 250);
    try {
      const loads = [
        ['GET /v1/ping', 20_000, { url: `${app.url}/v1/ping`, headers: { authorization: `Bearer ${project.secretKey}` } }],
        ['POST /v1/track', 8_000, { url: app.url, requests: trackRequests(project.publicKey) }],
        ['POST /v1/send (outbox)', 3_000, { url: app.url, requests: sendRequests(project.secretKey, 0), timeout: 30 }],
      ];
      for (const [name, amount, options] of loads) {
        const n = Math.round(amount * scale);
        await load({ ...options, connections: 50, amount: Math.round(n / 10) }); // warm-up
        const cpu0 = processCpuMs(app.pid);
        const r = await load({ ...options, connections: 50, amount: n });
        const cpu = processCpuMs(app.pid) - cpu0;
        if (r.non2xx || r.errors) ctx.log(`${label} ${name}: ${r.non2xx} non-2xx, ${r.errors} errors ${JSON.stringify(r.statusCodes)}`);
        rows.push(row(`${name}: service CPU per 1,000 requests`, label, Math.round((cpu / n) * 1000), 'ms'));
        rows.push(row(`${name}: req/s @50 conns`, label, Math.round(r.rps), 'req/s'));
        rows.push(row(`${name}: non-2xx`, label, r.non2xx + r.errors, 'count', { max: 0 }));
      }
    } finally {
      clearInterval(sampler);
    }
    rows.push(row('peak RSS during the loads', label, mb(peak), 'MB'));
    const settle = ctx.quick ? 20 : 70;
    await sleep(settle * 1000);
    rows.push(row(`RSS ${settle} s after the loads`, label, mb(app.rssBytes()), 'MB', { max: 400 }));
    return firstPeak;
  } finally {
    await app.stop({ keepData: true });
  }
}

module.exports = { run };
