'use strict';
// Issue 37: event webhooks (docs/integrations.md), in each mode, against a loopback receiver that
// verifies every request with the `standardwebhooks` package, as a receiver in production would.
// 1. `/v1/track` req/s with no endpoint against three endpoints subscribed to `*`, in alternating
//    rounds (BENCH_WEBHOOKS_ROUNDS, 3; 1 with --quick), each followed by the wait until every
//    delivery it caused is done; the medians are compared (goal: ≥ 90%).
// 2. Deliveries/s: N events tracked at once for existing contacts; N × 3 verified requests
//    answered 2xx, over the time from the first track request to the last of them (goal ≥ 500).
// 3. Outage: the receiver stops listening, M events are tracked, it comes back after
//    BENCH_WEBHOOKS_OUTAGE_S (20 s; 60 s without --quick); delivered, duplicates to a 2xx (by
//    `webhook-id`), lost. The retry schedule is shortened (1 s, 2 s, 4 s, 8 s, 15 s, 30 s, 60 s:
//    two minutes in all, longer than the outage) so the figure comes within the run.
const http = require('node:http');
const { Webhook } = require('standardwebhooks');
const { processCpuMs } = require('../lib/cpu');
const { _internals: trackSuite } = require('./track');

const ENDPOINTS = 3;
const RETRY_SCHEDULE_MS = '1000,2000,4000,8000,15000,30000,60000';

/**
 * A loopback webhook receiver: verifies each request against its path's secret, answers 200
 * (or nothing while down), and counts verified 2xx answers per path, event type and webhook-id.
 */
async function startReceiver() {
  const secrets = new Map();
  const state = { requests: 0, unverified: 0, answered: new Map() };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      const body = Buffer.concat(chunks);
      const path = req.url.split('?')[0];
      let event;
      try {
        event = new Webhook(secrets.get(path)).verify(body, req.headers);
      } catch {
        state.unverified++;
        res.writeHead(400).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}', () => {
        const key = `${path} ${event.type}`;
        let perId = state.answered.get(key);
        if (!perId) state.answered.set(key, (perId = new Map()));
        perId.set(event.id, (perId.get(event.id) || 0) + 1);
      });
    });
  });
  server.keepAliveTimeout = 30_000;
  const listen = (port) => new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  await listen(0);
  const port = server.address().port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    secret: (path, secret) => secrets.set(path, secret),
    get requests() {
      return state.requests;
    },
    get unverified() {
      return state.unverified;
    },
    /** Verified 2xx answers at `path` for events of `type`: { distinct ids, total answers, ids answered twice or more, ids }. */
    counts(path, type) {
      const perId = state.answered.get(`${path} ${type}`) || new Map();
      let total = 0;
      let duplicates = 0;
      for (const n of perId.values()) {
        total += n;
        if (n > 1) duplicates++;
      }
      return { distinct: perId.size, total, duplicates, ids: perId };
    },
    async down() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
    up: () => listen(port),
    async close() {
      server.closeAllConnections();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function waitUntil(check, timeoutMs, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Track requests of `event` for the contacts `prefix`0 … `prefix`(pool-1) (already created: no contact is new). */
const trackEvents = (publicKey, event, prefix, pool) => trackSuite.trackRequestsOf(publicKey, (i) => ({ email: `${prefix}${i % pool}@bench.example.com`, event, data: { i } }));

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, projectApi, load, row } = ctx;
  const rows = [];
  const rounds = ctx.quick ? 1 : Math.max(1, Number(process.env.BENCH_WEBHOOKS_ROUNDS || 3));
  const deliveriesN = ctx.quick ? 2_000 : 10_000;
  const outageN = ctx.quick ? 300 : 1_000;
  const outageS = Number(process.env.BENCH_WEBHOOKS_OUTAGE_S || (ctx.quick ? 20 : 60));
  for (const mode of ctx.modes) {
    const receiver = await startReceiver();
    const app = await startApp({ mode, env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE_MS: RETRY_SCHEDULE_MS } });
    try {
      const project = await createProject(app.url);
      const call = projectApi(app.url, project.secretKey);
      let endpoints = [];
      const createEndpoints = async (tag) => {
        endpoints = [];
        for (let i = 0; i < ENDPOINTS; i++) {
          const path = `/${tag}/${i}`;
          const created = await call('POST', '/webhooks', { url: receiver.url(path), events: ['*'] });
          receiver.secret(path, created.secret);
          endpoints.push({ id: created.id, path });
        }
      };
      const deleteEndpoints = async () => {
        for (const e of endpoints) await call('DELETE', `/webhooks/${e.id}`);
        endpoints = [];
      };
      /** Deliveries still pending over every endpoint (from the log). */
      const pending = async () => {
        let n = 0;
        for (const e of endpoints) n += (await call('GET', `/webhooks/${e.id}/deliveries?status=pending&limit=1`)).total;
        return n;
      };
      /** Waits until no delivery is pending; seconds it took (null: still pending after the bound). */
      const drain = async (timeoutMs = 300_000) => {
        const t0 = Date.now();
        const done = await waitUntil(async () => ((await pending()) === 0 ? true : undefined), timeoutMs, 500);
        return done ? (Date.now() - t0) / 1000 : null;
      };

      // 1. /v1/track with and without three `*` endpoints.
      const base = { url: app.url, connections: 50, duration: ctx.duration };
      const warm = trackSuite.trackRequests(project.publicKey);
      await load({ ...base, duration: 3, requests: warm }); // JIT, pools, the 10,000 contacts of the pool
      const noneRps = [];
      const withRps = [];
      // The service process's CPU per tracked request: the load alone without endpoints; the load
      // and the wait until its deliveries are done with them (embedded: the database's work too).
      const noneCpu = [];
      const withCpu = [];
      const duringCpu = [];
      /** This process's CPU (autocannon and the receiver), ms. */
      const ownCpu = () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      };
      const ownPerRequest = { none: [], with: [] };
      let drainedAfter = 0;
      for (let r = 0; r < rounds; r++) {
        let cpu0 = processCpuMs(app.pid);
        let own0 = ownCpu();
        const none = await load({ ...base, requests: trackEvents(project.publicKey, `bench.none${r}`, 'user', 10_000) });
        noneRps.push(none.rps);
        noneCpu.push((processCpuMs(app.pid) - cpu0) / Math.max(1, none.total));
        ownPerRequest.none.push((ownCpu() - own0) / Math.max(1, none.total));
        await createEndpoints(`track${r}`);
        cpu0 = processCpuMs(app.pid);
        own0 = ownCpu();
        // Its own event name, so the drain below counts this round's deliveries at the receiver.
        const roundType = `bench.round${r}`;
        const withHooks = await load({ ...base, requests: trackEvents(project.publicKey, roundType, 'user', 10_000) });
        withRps.push(withHooks.rps);
        // The load phase alone (its deliveries are done, or waiting, after): on a CPU-bound service req/s
        // follows CPU per request, and this ratio does not move with the machine's other load as req/s does.
        duringCpu.push((processCpuMs(app.pid) - cpu0) / Math.max(1, withHooks.total));
        // Done when the receiver has every delivery of the load's events (the fan-out itself may
        // still be waiting when the load ends: it yields to a busy API) and none is pending.
        const expected = (withHooks.total - withHooks.non2xx - (withHooks.errors || 0)) * ENDPOINTS;
        const t1 = Date.now();
        const arrived = await waitUntil(async () => (endpoints.reduce((n, e) => n + receiver.counts(e.path, roundType).distinct, 0) >= expected ? true : undefined), 300_000, 100);
        const rest = arrived ? await drain() : null;
        const took = rest === null ? null : Number(((Date.now() - t1) / 1000).toFixed(2));
        withCpu.push((processCpuMs(app.pid) - cpu0) / Math.max(1, withHooks.total));
        ownPerRequest.with.push((ownCpu() - own0) / Math.max(1, withHooks.total));
        if (took === null) ctx.log(`${mode}: round ${r + 1}: deliveries still pending after 5 minutes`);
        drainedAfter = Math.max(drainedAfter, took ?? Infinity);
        ctx.log(
          `${mode}: round ${r + 1}: track ${Math.round(noneRps[r])} req/s without endpoints, ${Math.round(withRps[r])} with ${ENDPOINTS} (${Math.round((withRps[r] / noneRps[r]) * 100)}%); ` +
            `deliveries done ${took} s after; service CPU per tracked request ${noneCpu[r].toFixed(2)} → ${duringCpu[r].toFixed(2)} ms during the load, ${withCpu[r].toFixed(2)} ms with its deliveries ` +
            `(this process, load generator and receiver: ${ownPerRequest.none[r].toFixed(2)} → ${ownPerRequest.with[r].toFixed(2)} ms)`,
        );
        if (r < rounds - 1) await deleteEndpoints();
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const none = median(noneRps);
      const withHooks = median(withRps);
      const suffix = rounds > 1 ? ` (median of ${rounds})` : '';
      rows.push(row(`/v1/track req/s @50 conns, no endpoint${suffix}`, mode, Math.round(none), 'req/s'));
      rows.push(row(`/v1/track req/s @50 conns, ${ENDPOINTS} endpoints on *${suffix}`, mode, Math.round(withHooks), 'req/s', undefined, { baseline: Math.round(none) }));
      rows.push(row(`/v1/track with ${ENDPOINTS} endpoints / without`, mode, Math.round((withHooks / none) * 100), '%', { min: 90 }, { baseline: Math.round(none), baselineUnit: 'req/s' }));
      rows.push(row('seconds after a track load until its deliveries were done (worst round)', mode, drainedAfter, 's'));
      rows.push(row(`service CPU per tracked request during the load, ${ENDPOINTS} endpoints${suffix}`, mode, Number(median(duringCpu).toFixed(2)), 'ms', undefined, { baseline: Number(median(noneCpu).toFixed(2)) }));
      rows.push(row(`service CPU per tracked request, its ${ENDPOINTS} deliveries included${suffix}`, mode, Number(median(withCpu).toFixed(2)), 'ms', undefined, { baseline: Number(median(noneCpu).toFixed(2)) }));

      // 2. Deliveries/s: N events for existing contacts, each to the three endpoints.
      const type = 'bench.delivery';
      const t0 = Date.now();
      const tracked = await load({ url: app.url, connections: 50, amount: deliveriesN, requests: trackEvents(project.publicKey, type, 'user', 10_000) });
      const trackedS = (Date.now() - t0) / 1000;
      if (tracked.non2xx || tracked.errors) ctx.log(`${mode}: ${tracked.non2xx} non-2xx, ${tracked.errors} errors while tracking ${deliveriesN}`);
      const expected = deliveriesN * ENDPOINTS;
      const delivered = () => endpoints.reduce((n, e) => n + receiver.counts(e.path, type).distinct, 0);
      await waitUntil(async () => (delivered() >= expected ? true : undefined), 600_000, 20);
      const tookS = (Date.now() - t0) / 1000;
      const got = delivered();
      ctx.log(`${mode}: ${deliveriesN} events tracked in ${trackedS.toFixed(1)} s; ${got}/${expected} deliveries by ${tookS.toFixed(1)} s; unverified ${receiver.unverified}`);
      rows.push(row(`deliveries/s to a loopback receiver (${deliveriesN} events × ${ENDPOINTS} endpoints, from the first track)`, mode, Math.round(got / tookS), 'deliveries/s', { min: 500 }));
      rows.push(row('requests the receiver could not verify (standardwebhooks)', mode, receiver.unverified, 'count', { max: 0 }));
      await drain();

      // 3. Outage: the receiver is down while M events are tracked, then back.
      const outageType = 'bench.outage';
      await receiver.down();
      const downAt = Date.now();
      await load({ url: app.url, connections: 20, amount: outageN, requests: trackEvents(project.publicKey, outageType, 'user', 10_000) });
      await new Promise((r) => setTimeout(r, Math.max(0, outageS * 1000 - (Date.now() - downAt))));
      await receiver.up();
      const upAt = Date.now();
      const outageDelivered = () => endpoints.reduce((n, e) => n + receiver.counts(e.path, outageType).distinct, 0);
      await waitUntil(async () => (outageDelivered() >= outageN * ENDPOINTS ? true : undefined), 300_000, 100);
      const caughtUpS = (Date.now() - upAt) / 1000;
      await drain(120_000);
      const per = endpoints.map((e) => receiver.counts(e.path, outageType));
      const outDelivered = per.reduce((n, c) => n + c.distinct, 0);
      const duplicates = per.reduce((n, c) => n + c.duplicates, 0);
      const lost = outageN * ENDPOINTS - outDelivered;
      ctx.log(`${mode}: outage ${Math.round((upAt - downAt) / 1000)} s, ${outageN} events × ${ENDPOINTS}: delivered ${outDelivered}, duplicates ${duplicates}, lost ${lost}; all in ${caughtUpS.toFixed(1)} s after it came back`);
      rows.push(row(`outage ${outageS} s, ${outageN} events × ${ENDPOINTS} endpoints: delivered`, mode, outDelivered, 'deliveries', { min: outageN * ENDPOINTS }));
      rows.push(row('outage: duplicates to a 2xx (by webhook-id)', mode, duplicates, 'count', { max: 0 }));
      rows.push(row('outage: lost', mode, lost, 'count', { max: 0 }));
      rows.push(row('outage: seconds after the receiver came back until all arrived', mode, Number(caughtUpS.toFixed(1)), 's'));
    } finally {
      await app.stop();
      await receiver.close();
    }
  }
  return rows;
}

module.exports = { run, _internals: { startReceiver } };
