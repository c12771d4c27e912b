'use strict';
// Issue 3: `POST /v1/track` at 50 connections in each mode, side by side with the no-op
// `GET /v1/ping`. Every request tracks for one of 10,000 contacts (created on first sight, so the
// run mixes inserts and updates) with a small `data` patch; half the requests change a value.

const POOL = 10_000;

/** `/v1/track` requests with the public key; `bodyOf(i)` is the i-th request's body. */
function trackRequestsOf(publicKey, bodyOf) {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/v1/track',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${publicKey}` },
      setupRequest: (req) => ({ ...req, body: JSON.stringify(bodyOf(n++)) }),
    },
  ];
}

function trackRequests(publicKey) {
  return trackRequestsOf(publicKey, (i) => ({ email: `user${i % POOL}@bench.example.com`, event: i % 5 === 0 ? 'purchase' : 'page_view', data: { plan: i % 2 ? 'pro' : 'free', visits: i % 7 } }));
}

/** A loopback OTLP/HTTP receiver that accepts and drops everything (`BENCH_OTLP=1`). */
function startOtlpSink() {
  const server = require('node:http').createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { deployments } = ctx;
  const rows = [];
  // BENCH_OTLP=1: the cost of OpenTelemetry instead, each deployment beside its twin exporting to a loopback receiver.
  if (process.env.BENCH_OTLP === '1') {
    const sink = await startOtlpSink();
    try {
      for (const d of deployments(ctx.modes)) rows.push(...(await tracingCost(ctx, d, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.address().port}` })));
    } finally {
      sink.close();
    }
    return rows;
  }
  for (const d of deployments(ctx.modes)) rows.push(...(await runOne(ctx, d)));
  return rows;
}

const OTLP_ROUNDS = Number(process.env.BENCH_OTLP_ROUNDS || 3);

/**
 * Ping and track with tracing off and on (default sampler), the two deployments up side by side
 * and measured in alternating rounds (BENCH_OTLP_ROUNDS, 3), medians compared: the machine's
 * drift over a run falls on both alike.
 */
async function tracingCost(ctx, { mode, label, env }, otel) {
  const { startApp, createProject, load, median, row } = ctx;
  const apps = { off: await startApp({ mode, env }), on: await startApp({ mode, env: { ...env, ...otel } }) };
  try {
    const rates = { off: { ping: [], track: [] }, on: { ping: [], track: [] } };
    const setups = {};
    for (const [k, app] of Object.entries(apps)) {
      const project = await createProject(app.url);
      setups[k] = {
        ping: { url: `${app.url}/v1/ping`, connections: 50, duration: ctx.duration, headers: { authorization: `Bearer ${project.secretKey}` } },
        track: { url: app.url, connections: 50, duration: ctx.duration, requests: trackRequests(project.publicKey) },
      };
      await load({ ...setups[k].ping, duration: 1 });
      await load({ ...setups[k].track, duration: 2 });
    }
    for (let round = 0; round < OTLP_ROUNDS; round++) {
      for (const k of round % 2 ? ['on', 'off'] : ['off', 'on']) {
        for (const kind of ['ping', 'track']) {
          const result = await load(setups[k][kind]);
          if (result.non2xx || result.errors) ctx.log(`${label} ${k} ${kind}: ${result.non2xx} non-2xx, ${result.errors} errors ${JSON.stringify(result.statusCodes)}`);
          rates[k][kind].push(result.rps);
        }
      }
    }
    ctx.log(`${label}: tracing off ${JSON.stringify(rates.off)}, on ${JSON.stringify(rates.on)} req/s`);
    return ['ping', 'track'].flatMap((kind) => {
      const off = median(rates.off[kind]);
      const on = median(rates.on[kind]);
      const path = kind === 'ping' ? 'GET /v1/ping' : 'POST /v1/track';
      return [
        row(`${path} req/s @50 conns, OpenTelemetry on (median of ${OTLP_ROUNDS}, alternating with it off)`, label, Math.round(on), 'req/s', undefined, { baseline: Math.round(off) }),
        row(`  ${path} with OpenTelemetry on / off`, label, Math.round((on / off) * 100), '%', { min: 70 }),
      ];
    });
  } finally {
    await Promise.all(Object.values(apps).map((app) => app.stop()));
  }
}

/** One deployment's ping and track figures. */
async function runOne(ctx, { mode, label, env }) {
  const { startApp, createProject, load, row } = ctx;
  const rows = [];
  const app = await startApp({ mode, env });
  try {
    const project = await createProject(app.url);
    const ping = { url: `${app.url}/v1/ping`, connections: 50, duration: ctx.duration, headers: { authorization: `Bearer ${project.secretKey}` } };
    await load({ ...ping, duration: 1 });
    const pinged = await load(ping);
    const track = { url: app.url, connections: 50, duration: ctx.duration, requests: trackRequests(project.publicKey) };
    await load({ ...track, duration: 2 }); // warm-up: JIT, pools, first contacts and field types
    const tracked = await load(track);
    if (tracked.non2xx || tracked.errors) ctx.log(`${label}: ${tracked.non2xx} non-2xx, ${tracked.errors} errors ${JSON.stringify(tracked.statusCodes)}`);
    const target = mode === 'services' ? { min: 1500 } : undefined;
    rows.push(row('GET /v1/ping req/s @50 conns (baseline)', label, Math.round(pinged.rps), 'req/s'));
    rows.push(row('POST /v1/track req/s @50 conns', label, Math.round(tracked.rps), 'req/s', target, { baseline: Math.round(pinged.rps) }));
    rows.push(row('POST /v1/track p50 @50 conns', label, tracked.p50, 'ms'));
    rows.push(row('POST /v1/track p99 @50 conns', label, tracked.p99, 'ms', mode === 'services' ? { max: 100 } : undefined));
    rows.push(row('POST /v1/track non-2xx', label, tracked.non2xx + tracked.errors, 'count', { max: 0 }));
  } finally {
    await app.stop();
  }
  return rows;
}

module.exports = { run, _internals: { trackRequests, trackRequestsOf } };
