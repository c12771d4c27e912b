'use strict';
// Issue 13: campaigns. A campaign of N recipients (100,000; --quick 5,000) into the loopback SMTP
// receiver, side by side with nodemailer alone pushing the same rendered messages to the same
// receiver (send.js's baseline, the transport's limit): emails/s from `POST /campaigns/:id/send`
// to the last message received, time to the first message, peak RSS of every process, and the CPU
// each process spent per email (service processes, PostgreSQL, the receiver) beside the CPU per
// message of the baseline and the machine's budget at the 70% target (bench/README). Then, in
// services mode: materialising a 1,000,000-contact audience (rows + checkpoint, with the send
// queue paused so only the fan-out runs). The crash run at 100,000 recipients is its own suite
// (campaign-crash.js). Data is generated in SQL (generate_series).
const { Client } = require('pg');
const { Queue } = require('bullmq');
const { randomBytes } = require('node:crypto');
const { databaseUrlOf } = require('../lib/database-url');
const { REDIS_URL, projectApi } = require('../lib/app');
const { _internals: sendSuite } = require('./send');
const { availableParallelism } = require('node:os');
const { cpuReading, ownCpuMs, postgresCpuMs, processCpuMs, rendererCpuMs, rendererPids } = require('../lib/cpu');

const POOL_SIZE = Number(process.env.BENCH_SMTP_POOL_SIZE || 10);
// BENCH_CAMPAIGN_WORKERS: ROLE=worker processes beside the API in services mode (1).
const CAMPAIGN_WORKERS = Number(process.env.BENCH_CAMPAIGN_WORKERS || 1);
const paragraph = '<p style="font-family:Arial">Hello {{firstName}}, here is what happened in your account this week. Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>';
const BODY = `<html><body>${paragraph.repeat(25)}<p>Plan: {{plan ?? "free"}}</p></body></html>`;

async function seed(db, projectId, n, prefix) {
  await db.query(
    `INSERT INTO contacts (project_id, email, subscribed, data)
     SELECT $1, $3 || g || '@bench.example.org', true, jsonb_build_object('firstName', 'Bench ' || g, 'plan', 'pro')
       FROM generate_series(0, $2 - 1) g`,
    [projectId, n, prefix],
  );
  await db.query('ANALYZE contacts');
}

const campaignBody = (name) => ({ name, subject: 'Hello {{firstName}}', body: BODY, from: 'hello@bench.example.com', fromName: 'Bench', type: 'TRANSACTIONAL', audienceType: 'ALL' });

/** Peak resident set size of each process (`/proc`), sampled every 100 ms. */
function rssSampler(pids) {
  const peak = new Map(pids.map((p) => [p, 0]));
  const read = (pid) => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
    } catch {
      return 0;
    }
  };
  const timer = setInterval(() => pids.forEach((p) => peak.set(p, Math.max(peak.get(p), read(p)))), 100);
  return { stop: () => (clearInterval(timer), peak) };
}

async function throughput(ctx, deployment, receiver, n, limit) {
  const { startApp, createProject, row } = ctx;
  const { mode, label, workers } = deployment;
  const poolPerProcess = Math.max(1, Math.round(POOL_SIZE / Number(workers || 1)));
  const app = await startApp({ mode, workers, env: { EMAIL_TRANSPORT: 'smtp', SMTP_URL: receiver.url, DOMAIN_VERIFICATION: 'off', SMTP_POOL_SIZE: String(poolPerProcess) }, timeoutMs: 120_000 });
  const rows = [];
  try {
    const project = await createProject(app.url);
    await receiver.waitFor(1, 30_000); // the signup's verification mail
    const call = projectApi(app.url, project.secretKey);
    const db = new Client({ connectionString: await databaseUrlOf(app) });
    await db.connect();
    try {
      // Warm-up campaign (JIT, pools, compiled template).
      await seed(db, project.id, 200, 'warm');
      const warm = (await call('POST', '/campaigns', campaignBody('warm'))).data;
      receiver.reset();
      await call('POST', `/campaigns/${warm.id}/send`);
      await receiver.waitFor(200, 120_000);
      // Received is not yet recorded: deleting the contacts while the last sent records are written
      // would deadlock with them (the delete sets their emails' contact to NULL).
      for (let t = Date.now(); (await call('GET', `/campaigns/${warm.id}`)).status !== 'SENT'; ) {
        if (Date.now() - t > 60_000) throw new Error('the warm-up campaign did not end SENT within 60 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      await db.query(`DELETE FROM contacts WHERE project_id = $1`, [project.id]);
      await seed(db, project.id, n, 'user');
      const campaign = (await call('POST', '/campaigns', campaignBody('bench'))).data;
      const sampler = rssSampler([app.pid, ...app.workerPids]);
      // The renderer processes the warm-up started (docs/rendering.md): their memory and CPU count too.
      const renderers = rendererPids([app.pid, ...app.workerPids]);
      const rendererSampler = rssSampler(renderers);
      const cpuSources = campaignCpuSources(app, mode, workers);
      const cpu0 = cpuReading(cpuSources);
      receiver.reset();
      const t0 = Date.now();
      await call('POST', `/campaigns/${campaign.id}/send`);
      await receiver.waitFor(1, 60_000);
      const firstMs = Date.now() - t0;
      await receiver.waitFor(n, 1_800_000);
      const seconds = (Date.now() - t0) / 1000;
      const peak = sampler.stop();
      const rendererPeak = rendererSampler.stop();
      const cpu = cpuReading(cpuSources).since(cpu0);
      const rate = n / seconds;
      ctx.log(`${label}: ${n} campaign emails received in ${seconds.toFixed(1)} s; first after ${firstMs} ms`);
      rows.push(row(`campaign ${n} recipients → received by SMTP, emails/s`, label, Math.round(rate), 'emails/s', undefined, { baseline: Math.round(limit) }));
      rows.push(row('campaign share of nodemailer-alone limit', label, Math.round((rate / limit) * 100), '%', { min: 70 }, { baseline: Math.round(limit), baselineUnit: 'emails/s' }));
      rows.push(row('POST /campaigns/:id/send → first message received', label, firstMs, 'ms', { max: 1000 }));
      [...peak.values()].forEach((bytes, i) => rows.push(row(`peak RSS, ${i === 0 ? (workers ? 'api' : 'service') : `worker ${i}`} process`, label, Math.round(bytes / 1048576), 'MB', { max: 300 })));
      [...rendererPeak.values()].forEach((bytes, i) => rows.push(row(`peak RSS, renderer process ${i + 1}`, label, Math.round(bytes / 1048576), 'MB')));
      rows.push(...cpuRows(row, label, cpu, n, seconds));
      const stats = await call('GET', `/campaigns/${campaign.id}/stats`);
      rows.push(row('campaign stats sentCount = recipients', label, stats.sentCount, 'count', { min: n }));
      rows.push(...(await abThroughput(ctx, call, receiver, n, rate, label)));
      rows.push(...(await gradual(ctx, { call, db, receiver, label, n, plainRate: rate })));
    } finally {
      await db.end();
    }
  } finally {
    await app.stop();
  }
  return rows;
}

/**
 * An A/B campaign (test share 20%, two subjects) to the same audience in the same run, beside the
 * plain one: its emails/s over its two sending phases (the test share, then the rest once the
 * winner is picked by hand), the wait left out. docs/delivery-control.md#ab-tests.
 */
async function abThroughput(ctx, call, receiver, n, plainRate, label) {
  const { row } = ctx;
  const body = { ...campaignBody('bench-ab'), abTest: { variants: [{ subject: 'Hi {{firstName}}!' }], testPercent: 20, metric: 'opens', waitMinutes: 30 } };
  const campaign = (await call('POST', '/campaigns', body)).data;
  receiver.reset();
  const t0 = Date.now();
  await call('POST', `/campaigns/${campaign.id}/send`);
  let testShare = 0;
  for (;;) {
    const stats = await call('GET', `/campaigns/${campaign.id}/stats`);
    if (stats.abTest && stats.abTest.phase === 'waiting') {
      testShare = stats.abTest.variants.reduce((a, v) => a + v.recipients, 0);
      break;
    }
    if (Date.now() - t0 > 1_800_000) throw new Error('the A/B test share was not written within 30 minutes');
    await new Promise((r) => setTimeout(r, 50));
  }
  await receiver.waitFor(testShare, 1_800_000);
  const testSeconds = (Date.now() - t0) / 1000;
  const r0 = Date.now();
  await call('POST', `/campaigns/${campaign.id}/ab/winner`, { variant: 'B' });
  await receiver.waitFor(n, 1_800_000);
  const restSeconds = (Date.now() - r0) / 1000;
  const rate = n / (testSeconds + restSeconds);
  ctx.log(`${label}: A/B campaign of ${n}: test share ${testShare} in ${testSeconds.toFixed(1)} s, the rest in ${restSeconds.toFixed(1)} s`);
  return [
    row(`A/B campaign ${n} recipients (test 20%) → received, emails/s over its sending phases`, label, Math.round(rate), 'emails/s', undefined, { baseline: Math.round(plainRate), baselineUnit: 'emails/s' }),
    row('A/B campaign share of the plain campaign emails/s (same run)', label, Math.round((rate / plainRate) * 100), '%', { min: 90 }),
  ];
}

/**
 * The same audience as a 10-wave gradual campaign (docs/delivery-control.md): waves of n/10 every
 * minute. The pauses are skipped by moving the wave's start back in the database (the schedule
 * reads its clock there), so what is timed is the sending phases alone: from the send (first
 * wave) or the moment a wave became due, to its last message received.
 */
async function gradual(ctx, { call, db, receiver, label, n, plainRate }) {
  const { row } = ctx;
  const waves = 10;
  const size = Math.ceil(n / waves);
  const campaign = (await call('POST', '/campaigns', { ...campaignBody('gradual'), delivery: { batchSize: size, intervalMinutes: 1 } })).data;
  receiver.reset();
  let sendingMs = 0;
  let t = Date.now();
  await call('POST', `/campaigns/${campaign.id}/send`);
  for (let w = 1; w <= waves; w++) {
    await receiver.waitFor(Math.min(n, w * size), 600_000);
    sendingMs += Date.now() - t;
    if (w === waves) break;
    // Between waves: nothing more may leave until the next is due.
    await new Promise((r) => setTimeout(r, 300));
    if (receiver.count > w * size) throw new Error(`wave ${w} sent ${receiver.count} emails, more than its ${size}`);
    t = Date.now();
    await db.query(`UPDATE campaigns SET wave_started_at = wave_started_at - interval '2 minutes' WHERE id = $1`, [campaign.id]);
  }
  const rate = n / (sendingMs / 1000);
  ctx.log(`${label}: gradual campaign, ${waves} waves of ${size}: ${n} emails over ${(sendingMs / 1000).toFixed(1)} s of sending phases`);
  return [
    row(`gradual campaign (${waves} waves) emails/s over its sending phases`, label, Math.round(rate), 'emails/s', undefined, { baseline: Math.round(plainRate), baselineUnit: 'emails/s (plain campaign)' }),
    row('gradual campaign share of the plain campaign', label, Math.round((rate / plainRate) * 100), '%', { min: 90 }, { baseline: Math.round(plainRate), baselineUnit: 'emails/s' }),
  ];
}

/** Milliseconds to the hundredth, for the CPU rows. */
const hundredths = (ms) => Math.round(ms * 100) / 100;

/** Where the campaign's CPU goes: each service process, PostgreSQL (services mode), and this process (the receiver). */
function campaignCpuSources(app, mode, workers) {
  const sources = { [workers ? 'api' : 'service']: () => processCpuMs(app.pid) };
  app.workerPids.forEach((pid, i) => (sources[`worker ${i + 1}`] = () => processCpuMs(pid)));
  sources['renderer processes'] = () => rendererCpuMs([app.pid, ...app.workerPids]);
  if (mode === 'services') sources.PostgreSQL = postgresCpuMs;
  sources['receiver (bench process)'] = ownCpuMs;
  return sources;
}

/** CPU per email of each source, their sum, and the share of the machine's cores that was busy with them. */
function cpuRows(row, label, cpu, n, seconds) {
  const rows = Object.entries(cpu).map(([name, ms]) => row(`CPU per email, ${name}`, label, hundredths(ms / n), 'ms'));
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  rows.push(row('CPU per email, all of the above', label, hundredths(total / n), 'ms'));
  rows.push(row(`cores busy with them (of ${availableParallelism()})`, label, hundredths(total / (seconds * 1000)), 'cores'));
  return rows;
}

/**
 * The baseline with its CPU: nodemailer and the receiver share this process, so its CPU per message
 * is what the transport alone costs, sending and receiving. The rendering nodemailer alone is
 * spared (done before its clock starts: the service's renderer, Liquid and the generated text part)
 * is timed on its own.
 */
async function measuredBaseline(ctx, receiver, n) {
  const { row } = ctx;
  const r0 = ownCpuMs();
  const messages = sendSuite.renderAll(n);
  const renderMs = ownCpuMs() - r0;
  const t0 = ownCpuMs();
  const limit = await sendSuite.baseline(receiver, n, messages);
  const transportMs = ownCpuMs() - t0;
  const budget = (availableParallelism() * 1000) / (0.7 * limit);
  return {
    limit,
    rows: [
      row(`nodemailer alone → SMTP (pool ${POOL_SIZE})`, 'direct', Math.round(limit), 'emails/s'),
      row('CPU per message, nodemailer alone and the receiver (one process)', 'direct', hundredths(transportMs / n), 'ms'),
      row('CPU per message, rendering alone (Liquid and text part)', 'direct', hundredths(renderMs / n), 'ms'),
      row(`CPU per email that ${availableParallelism()} cores allow at 70% of the limit`, 'direct', hundredths(budget), 'ms'),
    ],
  };
}

/** 1,000,000 contacts: time from send until the audience is fully written (rows + checkpoint), the send queue paused. */
async function materialise(ctx, contacts) {
  const { startApp, createProject, row } = ctx;
  const prefix = `mrbench:${process.pid}:${randomBytes(4).toString('hex')}`;
  const app = await startApp({ mode: 'services', workers: 1, env: { REDIS_PREFIX: prefix, EMAIL_TRANSPORT: 'outbox', DOMAIN_VERIFICATION: 'off', CAMPAIGN_BATCH_SIZE: '5000', CAMPAIGN_MAX_QUEUED: '100000000' }, timeoutMs: 120_000 });
  const queue = new Queue('email-send', { connection: { url: REDIS_URL }, prefix });
  try {
    const project = await createProject(app.url);
    const call = projectApi(app.url, project.secretKey);
    const db = new Client({ connectionString: await databaseUrlOf(app) });
    await db.connect();
    try {
      const s0 = Date.now();
      await seed(db, project.id, contacts, 'm');
      ctx.log(`services: seeded ${contacts} contacts in ${((Date.now() - s0) / 1000).toFixed(1)} s`);
      await queue.pause();
      const campaign = (await call('POST', '/campaigns', campaignBody('million'))).data;
      const t0 = Date.now();
      await call('POST', `/campaigns/${campaign.id}/send`);
      for (;;) {
        const { rows } = await db.query(`SELECT audience_done, total_recipients FROM campaigns WHERE id = $1`, [campaign.id]);
        if (rows[0].audience_done) break;
        if (Date.now() - t0 > 600_000) throw new Error(`not materialised after 600 s (${rows[0].total_recipients} rows)`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const seconds = (Date.now() - t0) / 1000;
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM emails WHERE campaign_id = $1`, [campaign.id]);
      ctx.log(`services: ${rows[0].n} email rows written in ${seconds.toFixed(1)} s`);
      await call('POST', `/campaigns/${campaign.id}/cancel`);
      return [row(`materialise ${contacts / 1e6}M-contact audience (rows + checkpoint + enqueue)`, 'services', Math.round(seconds * 10) / 10, 's', { max: 30 })];
    } finally {
      await db.end();
    }
  } finally {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await app.stop();
  }
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { row } = ctx;
  const n = ctx.quick ? 5_000 : 100_000;
  const receiver = await sendSuite.startReceiver();
  const rows = [];
  try {
    await sendSuite.baseline(receiver, 200);
    const { limit, rows: baselineRows } = await measuredBaseline(ctx, receiver, Math.min(n, 20_000));
    rows.push(...baselineRows);
    // BENCH_CAMPAIGNS_ONLY=materialise runs the 1M materialisation alone; =send the campaign runs alone.
    const only = process.env.BENCH_CAMPAIGNS_ONLY;
    const deployments = only === 'materialise' ? [] : ctx.modes.flatMap((mode) => (mode === 'services' ? [{ mode, label: CAMPAIGN_WORKERS === 1 ? 'api+worker' : `api+${CAMPAIGN_WORKERS} workers`, workers: CAMPAIGN_WORKERS }] : [{ mode, label: mode }]));
    for (const d of deployments) {
      try {
        rows.push(...(await throughput(ctx, d, receiver, n, limit)));
      } catch (err) {
        ctx.log(`${d.label}: ${err && err.stack ? err.stack : err}`);
        rows.push(row(`campaign ${n} recipients → received by SMTP, emails/s`, d.label, String(err.message || err).slice(0, 60), '', '', false));
      }
    }
    if (ctx.modes.includes('services') && only !== 'send') {
      const contacts = only === 'materialise' || !ctx.quick ? 1_000_000 : 100_000;
      try {
        rows.push(...(await materialise(ctx, contacts)));
      } catch (err) {
        ctx.log(`materialise: ${err && err.stack ? err.stack : err}`);
        rows.push(row('materialise audience', 'services', String(err.message || err).slice(0, 60), '', '', false));
      }
    }
  } finally {
    await receiver.close();
  }
  return rows;
}

module.exports = { run };
