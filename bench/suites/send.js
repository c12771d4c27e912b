'use strict';
// Issue 4: `POST /v1/send` accepted-to-delivered throughput into a loopback SMTP receiver, in
// each mode, side by side with nodemailer alone pushing the same messages straight to the same
// receiver (the transport's own limit). One recipient per request; every request is a new
// contact, with a rendered subject and a ~4 KB HTML body; the baseline pushes those same messages
// (subject, HTML and generated text part), pre-rendered, with nodemailer's own composer.
const nodemailer = require('nodemailer');
const { SMTPServer } = require('smtp-server');
const { join } = require('node:path');
const { ROOT } = require('../lib');

const CONNECTIONS = 50;
const POOL_SIZE = Number(process.env.BENCH_SMTP_POOL_SIZE || 10);

const paragraph = '<p style="font-family:Arial">Hello {{firstName}}, here is what happened in your account this week. Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>';
const BODY = `<html><body>${paragraph.repeat(25)}<p>Plan: {{plan ?? "free"}}</p></body></html>`;

/** A counting SMTP receiver on loopback, messages per envelope recipient too (no parsing: the receiver must not be the bottleneck). */
async function startReceiver() {
  const state = { count: 0, waiters: [], perRecipient: new Map() };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 1000,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        state.count += 1;
        for (const r of session.envelope.rcptTo) state.perRecipient.set(r.address, (state.perRecipient.get(r.address) || 0) + 1);
        for (const wake of state.waiters.splice(0)) wake();
        callback(null, 'ok');
      });
    },
  });
  // A sender killed mid-connection resets it; the server reports each as an 'error' event.
  server.on('error', () => undefined);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.server.address().port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    get count() {
      return state.count;
    },
    /** Messages received per recipient address since the last reset. */
    get perRecipient() {
      return state.perRecipient;
    },
    reset() {
      state.count = 0;
      state.perRecipient.clear();
    },
    async waitFor(n, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (state.count < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${state.count} of ${n} messages within ${timeoutMs} ms`);
        await new Promise((resolve) => {
          const t = setTimeout(resolve, 100);
          state.waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * The message the service sends for request i, rendered by the service's own (compiled) renderer:
 * the same subject, HTML and generated text part, so both sides push the same bytes.
 */
function renderedMessages() {
  const { TemplateRenderer } = require(join(ROOT, 'dist/modules/templates/rendering/template-renderer'));
  const renderer = new TemplateRenderer();
  return (i) => {
    const { subject, html } = renderer.renderSource({ subject: 'Hello {{firstName}}', body: BODY }, { firstName: `Bench ${i}`, plan: 'pro' });
    return {
      from: 'Bench <hello@bench.example.com>',
      to: `user${i}@bench.example.org`,
      subject,
      html,
      text: renderer.toText(html),
      headers: { 'X-Mailroom-Email-Id': String(i) },
    };
  };
}

/** The baseline's messages, rendered before its clock starts (nodemailer alone does no rendering). */
function renderAll(n) {
  const render = renderedMessages();
  return Array.from({ length: n }, (_, i) => render(i));
}

/** nodemailer alone: the same messages (rendered before the clock starts, or given) through a pool of the same size, CONNECTIONS in flight. */
async function baseline(receiver, n, messages = renderAll(n)) {
  const transport = nodemailer.createTransport({ url: receiver.url, pool: true, maxConnections: POOL_SIZE, maxMessages: 1000 });
  receiver.reset();
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < n) await transport.sendMail(messages[next++]);
    }),
  );
  await receiver.waitFor(n, 60_000);
  const seconds = (Date.now() - t0) / 1000;
  transport.close();
  return n / seconds;
}

/** `POST /v1/send` requests whose body for the k-th request is `bodyOf(k)` (k counts from `offset`). */
function sendRequestsOf(secretKey, offset, bodyOf) {
  let i = 0;
  return [
    {
      method: 'POST',
      path: '/v1/send',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
      setupRequest(req) {
        return { ...req, body: JSON.stringify(bodyOf(offset + i++)) };
      },
    },
  ];
}

function sendRequests(secretKey, offset) {
  return sendRequestsOf(secretKey, offset, (k) => ({
    to: `user${k}@bench.example.org`,
    from: { name: 'Bench', email: 'hello@bench.example.com' },
    subject: 'Hello {{firstName}}',
    body: BODY,
    data: { firstName: `Bench ${k}`, plan: 'pro' },
  }));
}

/** One mode: warm up, then time `n` sends from the first request until the receiver has them all. */
async function measureMode(ctx, { mode, label, env, workers }, receiver, n, limit) {
  const { startApp, createProject, load, row } = ctx;
  const rows = [];
  // The same number of SMTP connections in all as the baseline, however many processes share them.
  const poolPerProcess = Math.max(1, Math.round(POOL_SIZE / Number(workers || env.PROCESSES || 1)));
  const app = await startApp({ mode, workers, env: { ...env, EMAIL_TRANSPORT: 'smtp', SMTP_URL: receiver.url, DOMAIN_VERIFICATION: 'off', SMTP_POOL_SIZE: String(poolPerProcess) } });
  try {
    const project = await createProject(app.url);
    await receiver.waitFor(1, 30_000); // the signup's verification mail
    // Warm-up: JIT, pools, the compiled-template cache.
    receiver.reset();
    const warm = await load({ url: app.url, connections: CONNECTIONS, amount: 200, requests: sendRequests(project.secretKey, 1_000_000) });
    await receiver.waitFor(200 - warm.non2xx - warm.errors, 60_000);

    receiver.reset();
    const t0 = Date.now();
    const accepted = await load({ url: app.url, connections: CONNECTIONS, amount: n, requests: sendRequests(project.secretKey, 0), timeout: 30 });
    const acceptedSeconds = (Date.now() - t0) / 1000;
    const ok = n - accepted.non2xx - accepted.errors;
    if (ok !== n) ctx.log(`${label}: ${accepted.non2xx} non-2xx, ${accepted.errors} errors ${JSON.stringify(accepted.statusCodes)}`);
    await receiver.waitFor(ok, 300_000);
    const seconds = (Date.now() - t0) / 1000;
    const rate = ok / seconds;
    ctx.log(`${label}: ${ok} emails accepted in ${acceptedSeconds.toFixed(1)} s, all received after ${seconds.toFixed(1)} s`);
    rows.push(row('POST /v1/send accepted req/s', label, Math.round(ok / acceptedSeconds), 'req/s'));
    rows.push(row('POST /v1/send p99', label, accepted.p99, 'ms'));
    rows.push(row('accepted → received by SMTP, emails/s', label, Math.round(rate), 'emails/s', mode === 'services' ? { min: 300 } : undefined, { baseline: Math.round(limit) }));
    rows.push(row('share of nodemailer-alone limit', label, Math.round((rate / limit) * 100), '%', { min: 70 }, { baseline: Math.round(limit), baselineUnit: 'emails/s' }));
    rows.push(row('POST /v1/send non-2xx', label, accepted.non2xx + accepted.errors, 'count', { max: 0 }));
  } finally {
    await app.stop();
  }
  return rows;
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { row } = ctx;
  const n = ctx.quick ? 600 : 3000;
  const receiver = await startReceiver();
  const rows = [];
  try {
    await baseline(receiver, 200);
    const limit = await baseline(receiver, n);
    rows.push(row(`nodemailer alone → SMTP (pool ${POOL_SIZE}, ${CONNECTIONS} in flight)`, 'direct', Math.round(limit), 'emails/s'));
    // Plus the docker/compose.yml topology: the API and the send worker as separate processes.
    const split = ctx.modes.includes('services') ? [{ mode: 'services', label: 'api+worker', env: {}, workers: 1 }] : [];
    for (const deployment of [...ctx.deployments(ctx.modes), ...split]) {
      const { mode, label } = deployment;
      try {
        rows.push(...(await measureMode(ctx, deployment, receiver, n, limit)));
      } catch (err) {
        ctx.log(`${label}: ${err && err.stack ? err.stack : err}`);
        rows.push(row('accepted → received by SMTP, emails/s', label, String(err.message || err).slice(0, 60), '', mode === 'services' ? '>= 300' : '', false));
      }
    }
  } finally {
    await receiver.close();
  }
  return rows;
}

module.exports = { run, _internals: { startReceiver, sendRequests, sendRequestsOf, baseline, renderAll } };
