'use strict';
// Issue 39: the SMTP submission relay (docs/smtp.md), in each mode, into a loopback SMTP
// receiver. The same messages (one recipient each, a new contact every time, a ~4 KB static HTML
// body and its text part) go in once through `POST /v1/send` (CONNECTIONS HTTP connections) and
// once through the relay, with a nodemailer client over STARTTLS holding as many pooled SMTP
// connections (one message in flight on each: SMTP has no pipelining of messages); each figure runs from the first submission until the
// receiver holds every message (goal: relay ≥ 80% of /v1/send, same run). Then the service's RSS
// before and with 100 idle authenticated submission sessions.
const tls = require('node:tls');
const nodemailer = require('nodemailer');
const { processCpuMs } = require('../lib/cpu');
const { _internals: sendSuite } = require('./send');

const CONNECTIONS = 50;
const POOL_SIZE = Number(process.env.BENCH_SMTP_POOL_SIZE || 10);
const IDLE_SESSIONS = 100;

const BODY = `<html><body>${'<p style="font-family:Arial">Here is what happened in your account this week. Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(25)}</body></html>`;
const FROM = { name: 'Bench', address: 'hello@bench.example.com' };

const apiRequests = (secretKey, offset) =>
  sendSuite.sendRequestsOf(secretKey, offset, (k) => ({ to: `api${k}@bench.example.org`, from: { name: FROM.name, email: FROM.address }, subject: 'Weekly summary', body: BODY }));

/** n messages through the relay from one pooled nodemailer client, CONNECTIONS at a time; resolves with the refusals. */
async function relay(port, secretKey, n, offset) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    requireTLS: true,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
    auth: { user: 'mailroom', pass: secretKey },
    tls: { rejectUnauthorized: false },
  });
  let next = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < n) {
        const i = offset + next++;
        await transport.sendMail({ from: FROM, to: `relay${i}@bench.example.org`, subject: 'Weekly summary', html: BODY }).catch(() => refused++);
      }
    }),
  );
  transport.close();
  return refused;
}

/** Opens `count` implicit-TLS sessions, each greeted and authenticated, and leaves them idle. */
async function idleSessions(port, secretKey, count) {
  const auth = Buffer.from(`\0mailroom\0${secretKey}`).toString('base64');
  const open = () =>
    new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false });
      let seen = '';
      const steps = [`EHLO bench.test\r\n`, `AUTH PLAIN ${auth}\r\n`];
      socket.setEncoding('utf8');
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        seen += chunk;
        if (!/\r\n$/.test(seen) || /^\d{3}-/m.test(seen.split('\r\n').slice(-2)[0])) return;
        if (/^235 /m.test(seen)) return resolve(socket);
        if (/^[45]\d\d /m.test(seen)) return reject(new Error(seen));
        seen = '';
        const step = steps.shift();
        if (step) socket.write(step);
      });
    });
  const sockets = [];
  for (let i = 0; i < count; i += 20) sockets.push(...(await Promise.all(Array.from({ length: Math.min(20, count - i) }, open))));
  return sockets;
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, load, row, freePort, sleep } = ctx;
  const n = ctx.quick ? 600 : 3000;
  const receiver = await sendSuite.startReceiver();
  const rows = [];
  try {
    for (const { mode, label, env } of ctx.deployments(ctx.modes)) {
      const port = await freePort();
      const tlsPort = await freePort();
      const poolPerProcess = Math.max(1, Math.round(POOL_SIZE / Number(env.PROCESSES || 1)));
      const app = await startApp({
        mode,
        env: { ...env, EMAIL_TRANSPORT: 'smtp', SMTP_URL: receiver.url, DOMAIN_VERIFICATION: 'off', SMTP_POOL_SIZE: String(poolPerProcess), SMTP_SUBMISSION_PORT: String(port), SMTP_SUBMISSION_TLS_PORT: String(tlsPort) },
      });
      try {
        const project = await createProject(app.url);
        await receiver.waitFor(1, 30_000); // the signup's verification mail
        // Warm-up of both paths: JIT, pools, TLS sessions.
        receiver.reset();
        await load({ url: app.url, connections: CONNECTIONS, amount: 200, requests: apiRequests(project.secretKey, 1_000_000) });
        await relay(port, project.secretKey, 200, 1_000_000);
        await receiver.waitFor(400, 60_000);

        // CPU of the service (its main process: with PROCESSES=2 the primary alone, so only for one process) and of this
        // client, per email of each path: where the time of the slower path goes.
        const clientCpuMs = () => {
          const { user, system } = process.cpuUsage();
          return (user + system) / 1000;
        };
        receiver.reset();
        let cpu0 = processCpuMs(app.pid);
        let client0 = clientCpuMs();
        let t0 = Date.now();
        const api = await load({ url: app.url, connections: CONNECTIONS, amount: n, requests: apiRequests(project.secretKey, 0), timeout: 30 });
        const apiOk = n - api.non2xx - api.errors;
        await receiver.waitFor(apiOk, 300_000);
        const apiRate = apiOk / ((Date.now() - t0) / 1000);
        const apiCpu = (processCpuMs(app.pid) - cpu0) / Math.max(1, apiOk);
        const apiClientCpu = (clientCpuMs() - client0) / Math.max(1, apiOk);

        receiver.reset();
        cpu0 = processCpuMs(app.pid);
        client0 = clientCpuMs();
        t0 = Date.now();
        const refused = await relay(port, project.secretKey, n, 0);
        await receiver.waitFor(n - refused, 300_000);
        const relayRate = (n - refused) / ((Date.now() - t0) / 1000);
        const relayCpu = (processCpuMs(app.pid) - cpu0) / Math.max(1, n - refused);
        const relayClientCpu = (clientCpuMs() - client0) / Math.max(1, n - refused);
        ctx.log(`${label}: /v1/send ${Math.round(apiRate)} emails/s, relay ${Math.round(relayRate)} emails/s (${refused} refused)`);
        rows.push(row('/v1/send accepted → received by SMTP, emails/s', label, Math.round(apiRate), 'emails/s'));
        rows.push(row('SMTP relay (nodemailer, STARTTLS) → received, emails/s', label, Math.round(relayRate), 'emails/s', undefined, { baseline: Math.round(apiRate) }));
        rows.push(row('relay share of /v1/send', label, Math.round((relayRate / apiRate) * 100), '%', { min: 80 }, { baseline: Math.round(apiRate), baselineUnit: 'emails/s' }));
        if (!env.PROCESSES) {
          rows.push(row('service CPU per email, relay (baseline: /v1/send)', label, Number(relayCpu.toFixed(2)), 'ms', undefined, { baseline: Number(apiCpu.toFixed(2)) }));
          rows.push(row('bench client CPU per email, nodemailer relay (baseline: HTTP /v1/send)', label, Number(relayClientCpu.toFixed(2)), 'ms', undefined, { baseline: Number(apiClientCpu.toFixed(2)) }));
        }
        rows.push(row('relay refusals', label, refused + api.non2xx + api.errors, 'count', { max: 0 }));

        await sleep(2_000);
        const before = app.rssBytes();
        const sessions = await idleSessions(tlsPort, project.secretKey, IDLE_SESSIONS);
        await sleep(2_000);
        const during = app.rssBytes();
        for (const socket of sessions) socket.destroy();
        // With PROCESSES=2 this is the cluster primary's alone (the copies hold the sessions).
        rows.push(row(`RSS with ${IDLE_SESSIONS} idle SMTP sessions`, label, Math.round(during / 1024 / 1024), 'MB', undefined, { baseline: Math.round(before / 1024 / 1024) }));
      } finally {
        await app.stop();
      }
    }
  } finally {
    await receiver.close();
  }
  return rows;
}

module.exports = { run };
