'use strict';
// Issue 39: inbound mail. nodemailer senders (pooled, STARTTLS) deliver to the SMTP_INBOUND_PORT
// listener; each message is acknowledged (250) only once its raw bytes are stored and its record,
// contact, `email.received` event and billing count are committed, so acknowledged messages per
// second is the inbound throughput. DNS (mailauth's SPF/DKIM/DMARC lookups) points at a closed
// loopback port: the lookups fail at once (temperror) and never leave the machine.
const nodemailer = require('nodemailer');

const SENDERS = 10;
const IN_FLIGHT = 40;
const TEXT = 'Hello, I have a question about my order. '.repeat(100);

function message(i) {
  return {
    envelope: { from: `customer${i}@customers.bench`, to: [`support@inbound.bench`] },
    from: `Customer ${i} <customer${i}@customers.bench>`,
    to: 'support@inbound.bench',
    subject: `Question ${i}`,
    text: TEXT,
    html: `<p>${TEXT}</p>`,
  };
}

/** Sends `n` messages over SENDERS pooled connections with IN_FLIGHT outstanding; answers the seconds taken and the failures. */
async function push(port, n, offset) {
  const transports = Array.from({ length: SENDERS }, () =>
    nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, pool: true, maxConnections: 1, maxMessages: Infinity, tls: { rejectUnauthorized: false } }),
  );
  let next = 0;
  let failed = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, lane) => {
      while (next < n) {
        const i = next++;
        await transports[lane % SENDERS].sendMail(message(offset + i)).catch(() => (failed += 1));
      }
    }),
  );
  const seconds = (Date.now() - t0) / 1000;
  for (const t of transports) t.close();
  return { seconds, failed };
}

async function measureMode(ctx, { mode, label }, n) {
  const { startApp, createProject, projectApi, freePort, row } = ctx;
  const inboundPort = await freePort();
  const closedDnsPort = await freePort();
  const app = await startApp({ mode, env: { SMTP_INBOUND_PORT: String(inboundPort), DOMAIN_VERIFICATION: 'off', DNS_SERVERS: `127.0.0.1:${closedDnsPort}` } });
  try {
    const project = await createProject(app.url);
    const api = projectApi(app.url, project.secretKey);
    await api('POST', '/domains', { domain: 'inbound.bench' });
    await push(inboundPort, 100, 1_000_000); // warm-up: JIT, pools, TLS sessions
    const { seconds, failed } = await push(inboundPort, n, 0);
    const stats = await api('GET', '/activity/stats');
    ctx.log(`${label}: ${n - failed} of ${n} messages acknowledged in ${seconds.toFixed(1)} s; received ${stats.received} (with the warm-up)`);
    return [
      row('inbound messages acknowledged/s (nodemailer, STARTTLS)', label, Math.round((n - failed) / seconds), 'msg/s'),
      row('inbound messages refused or failed', label, failed, 'count', { max: 0 }),
      row('email.received recorded = acknowledged', label, stats.received === n + 100 - failed ? 'yes' : `${stats.received}`, '', 'yes', stats.received === n + 100 - failed),
    ];
  } finally {
    await app.stop();
  }
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const n = ctx.quick ? 500 : 3000;
  const rows = [];
  for (const deployment of ctx.deployments(ctx.modes)) {
    try {
      rows.push(...(await measureMode(ctx, deployment, n)));
    } catch (err) {
      ctx.log(`${deployment.label}: ${err && err.stack ? err.stack : err}`);
      rows.push(ctx.row('inbound messages acknowledged/s (nodemailer, STARTTLS)', deployment.label, String(err.message || err).slice(0, 60), '', '', false));
    }
  }
  return rows;
}

module.exports = { run };
