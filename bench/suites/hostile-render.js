'use strict';
// Issue 36 item 5: hostile templates must not stall the service. `/health` is polled back to back
// (25 ms apart, from this process) while the service is idle (the baseline, same run, same
// process) and then while it works through the reproductions, each sent to 10 recipients:
// a range bound from data (1..60,000,000), a render spinning to its time limit, and output that
// outgrows the renderer's heap. Every one of those 30 emails must fail with render_error and the
// process stay up; the figure is /health's worst answer during them, against 200 ms, beside the
// idle baseline's.
// Issue 51 item 1: the save-time Liquid check of the largest body the limits allow (2,000,000
// characters holding 5,000 tags): the check itself (the built service's function, on 11 new
// bodies), the /v1/send request time beside the same size of plain text (same run), and /health's
// worst answer while 10 such requests run at once.
const http = require('node:http');
const { join } = require('node:path');
const { median } = require('../lib/measure');
const { performance } = require('node:perf_hooks');

const RECIPIENTS = 10;
const oneOff = (value) => ({ value, persistent: false });
const HOSTILE = {
  range: { body: '<p>{% for i in (1..n) %}{% endfor %}</p>', data: { n: oneOff(60_000_000) } },
  spin: {
    body: '<p>{% for a in xs %}{% for b in xs %}{% for c in xs %}{% endfor %}{% endfor %}{% endfor %}</p>',
    data: { xs: oneOff(Array.from({ length: 1_000 }, (_, i) => i)) },
  },
  grow: { body: '<p>{% for i in (1..n) %}{{ s | raw }}{% endfor %}</p>', data: { n: oneOff(20_000), s: oneOff('x'.repeat(20_000)) } },
};

function get(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: 30_000 }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
  });
}

async function post(url, key, body) {
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Polls `/health` until `until()` resolves; every latency in ms. */
async function pollHealth(base, until) {
  const latencies = [];
  let done = false;
  const finished = until().finally(() => (done = true));
  while (!done) {
    const t0 = performance.now();
    const res = await get(`${base}/health`);
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 25));
  }
  await finished;
  return latencies;
}

const failedEmails = (metrics) =>
  metrics
    .split('\n')
    .filter((line) => line.startsWith('mailroom_emails_total{') && line.includes('status="failed"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);

const summary = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { max: Math.round(sorted[sorted.length - 1]), p99: Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]) };
};

const LARGEST_SOURCE = 2_000_000;
const MAX_TAGS = 5_000;
/**
 * The largest body the limits allow: MAX_TAGS outputs spread through LARGEST_SOURCE characters,
 * starting with `nonce` so that each one is new to the service (a source that passed is remembered).
 */
function largestBody(tags, nonce = '') {
  const tag = '{{ email | upcase }}';
  const filler = 'x'.repeat(Math.floor((LARGEST_SOURCE - tags * tag.length) / Math.max(1, tags)));
  const body = (tags ? Array.from({ length: tags }, () => filler + tag).join('') : 'x'.repeat(LARGEST_SOURCE)).slice(0, LARGEST_SOURCE);
  // In place of the first filler's characters, so that the tags and the length stay as they are.
  return nonce + body.slice(nonce.length);
}

/** The save-time check itself (the built service's `checkLiquidSyntax`), in this process: ms of each of SAMPLES new largest bodies. */
function checkTimes(ROOT) {
  const { checkLiquidSyntax } = require(join(ROOT, 'dist', 'modules', 'templates', 'rendering', 'liquid-engine.js'));
  checkLiquidSyntax(largestBody(MAX_TAGS, 'warm '));
  return Array.from({ length: SAMPLES }, (_, i) => {
    const body = largestBody(MAX_TAGS, `check ${i} `);
    const t0 = performance.now();
    const problem = checkLiquidSyntax(body);
    const ms = performance.now() - t0;
    if (problem) throw new Error(`the largest body did not pass the check: ${problem.message}`);
    return ms;
  });
}

async function timedSend(base, key, body) {
  const t0 = performance.now();
  await post(`${base}/v1/send`, key, { to: 'check@example.com', from: 'hello@example.com', subject: 'Largest', body });
  return performance.now() - t0;
}

const SAMPLES = 11;

async function largestCheck(ctx, app, project, mode) {
  const { row } = ctx;
  const plainMs = [];
  const taggedMs = [];
  // Alternating, each body new to the service (a source that passed before is not checked again).
  await timedSend(app.url, project.secretKey, largestBody(0, 'warm '));
  await timedSend(app.url, project.secretKey, largestBody(MAX_TAGS, 'warm '));
  for (let i = 0; i < SAMPLES; i++) {
    plainMs.push(await timedSend(app.url, project.secretKey, largestBody(0, `plain ${i} `)));
    taggedMs.push(await timedSend(app.url, project.secretKey, largestBody(MAX_TAGS, `tagged ${i} `)));
  }
  const during = summary(
    await pollHealth(app.url, () => Promise.all(Array.from({ length: 10 }, (_, i) => timedSend(app.url, project.secretKey, largestBody(MAX_TAGS, `during ${i} `))))),
  );
  ctx.log(`${mode}: largest body plain ${JSON.stringify(plainMs.map(Math.round))}, tagged ${JSON.stringify(taggedMs.map(Math.round))}, /health during 10 ${JSON.stringify(during)}`);
  return [
    row(`/v1/send of 2,000,000 plain characters (baseline), median of ${SAMPLES}`, mode, Math.round(median(plainMs)), 'ms'),
    row(`/v1/send of 2,000,000 characters with 5,000 tags, median of ${SAMPLES}`, mode, Math.round(median(taggedMs)), 'ms', undefined, { baseline: Math.round(median(plainMs)) }),
    row('/health worst answer during 10 largest checks at once', mode, during.max, 'ms', { max: 200 }),
  ];
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, row, sleep, ROOT } = ctx;
  const checks = checkTimes(ROOT);
  ctx.log(`the save-time check of ${SAMPLES} new largest bodies: ${JSON.stringify(checks.map(Math.round))} ms`);
  const rows = [
    row(`the save-time Liquid check of the largest body (2,000,000 characters, 5,000 tags), median of ${SAMPLES}`, 'all', Math.round(median(checks)), 'ms', { max: 100 }),
    row(`  the same, slowest of ${SAMPLES}`, 'all', Math.round(Math.max(...checks)), 'ms'),
  ];
  for (const mode of ctx.modes) {
    const app = await startApp({ mode, env: { EMAIL_TRANSPORT: 'outbox', DOMAIN_VERIFICATION: 'off' } });
    try {
      const project = await createProject(app.url);
      await post(`${app.url}/v1/send`, project.secretKey, { to: 'warm@example.com', from: 'hello@example.com', subject: 'Warm', body: '<p>{{ email }}</p>' });
      await sleep(2_000);
      const idle = summary(await pollHealth(app.url, () => sleep(ctx.quick ? 3_000 : 8_000)));
      const before = failedEmails((await get(`${app.url}/metrics`)).text);
      const started = Date.now();
      const during = summary(
        await pollHealth(app.url, async () => {
          for (const [tag, hostile] of Object.entries(HOSTILE)) {
            const to = Array.from({ length: RECIPIENTS }, (_, i) => `${tag}-${i}@example.com`);
            await post(`${app.url}/v1/send`, project.secretKey, { to, from: 'hello@example.com', subject: `Hostile ${tag}`, body: hostile.body, data: hostile.data });
          }
          for (;;) {
            if (app.child.exitCode !== null || app.child.signalCode !== null) throw new Error('the service died');
            if (failedEmails((await get(`${app.url}/metrics`)).text) - before >= 3 * RECIPIENTS) return;
            if (Date.now() - started > 300_000) throw new Error('the hostile emails did not all fail within 300 s');
            await sleep(250);
          }
        }),
      );
      const alive = app.child.exitCode === null && app.child.signalCode === null;
      ctx.log(`${mode}: idle ${JSON.stringify(idle)}, during ${JSON.stringify(during)} over ${Math.round((Date.now() - started) / 1000)} s`);
      rows.push(row('/health worst answer, idle (baseline)', mode, idle.max, 'ms'));
      rows.push(row('/health worst answer during 30 hostile renders', mode, during.max, 'ms', { max: 200 }, { baseline: idle.max }));
      rows.push(row('/health p99 during 30 hostile renders', mode, during.p99, 'ms'));
      rows.push(row('  ratio worst answer during / idle', mode, Math.round((during.max / Math.max(1, idle.max)) * 100) / 100, 'x', undefined, { baseline: idle.max, baselineUnit: 'ms' }));
      rows.push(row('hostile emails failed with render_error, service alive', mode, alive ? 3 * RECIPIENTS : 0, 'emails', { min: 3 * RECIPIENTS }));
      rows.push(...(await largestCheck(ctx, app, project, mode)));
    } finally {
      await app.stop();
    }
  }
  return rows;
}

module.exports = { run };
