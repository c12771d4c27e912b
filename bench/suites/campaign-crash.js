'use strict';
// Issue 13: the campaign crash run at 100,000 recipients (--quick 5,000), once: a campaign into a
// loopback SMTP receiver that records every recipient, the service killed with SIGKILL at random
// moments while it sends (4 times) and restarted on the same database and queues, then left to
// finish. Reports messages received, duplicates (must be 0), missing (must be 0 apart from emails
// left `uncertain` by a kill mid-hand-over), the `uncertain` emails per kill and the share of them
// that had in fact arrived, and whether the campaign ended SENT with counters equal to its rows. Services mode when PostgreSQL and Redis are up, else embedded.
const { Client } = require('pg');
const { mkdtempSync, rmSync } = require('node:fs');
const { randomBytes } = require('node:crypto');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createDatabase, dropRedisPrefix } = require('../lib/app');
const { databaseUrlOf } = require('../lib/database-url');
const { _internals: sendSuite } = require('./send');

const KILLS = 4;

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, projectApi, row, sleep } = ctx;
  const mode = ctx.modes.includes('services') ? 'services' : 'embedded';
  const n = ctx.quick ? 5_000 : 100_000;
  const receiver = await sendSuite.startReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-bench-crash-'));
  const database = mode === 'services' ? await createDatabase() : null;
  const redisPrefix = `mrbench:${process.pid}:${randomBytes(4).toString('hex')}`;
  // The same database (and, in services mode, the same queues) across restarts.
  const env = { EMAIL_TRANSPORT: 'smtp', SMTP_URL: receiver.url, DOMAIN_VERIFICATION: 'off', ...(database ? { DATABASE_URL: database.url, REDIS_PREFIX: redisPrefix } : {}) };
  const start = () => startApp({ mode, dataDir, env, timeoutMs: 120_000 });
  let app = await start();
  try {
    const project = await createProject(app.url);
    let call = projectApi(app.url, project.secretKey);
    const dbUrl = database ? database.url : null;
    const query = async (sql, params) => {
      const db = new Client({ connectionString: dbUrl || (await databaseUrlOf(app)) });
      await db.connect();
      try {
        return (await db.query(sql, params)).rows;
      } finally {
        await db.end();
      }
    };
    await query(
      `INSERT INTO contacts (project_id, email, subscribed, data)
       SELECT $1, 'r' || g || '@crash.example', true, jsonb_build_object('firstName', 'Crash ' || g) FROM generate_series(0, $2 - 1) g`,
      [project.id, n],
    );
    const before = receiver.count; // the signup's verification mail
    const campaign = (await call('POST', '/campaigns', { name: 'Crash', subject: 'Crash {{firstName}}', body: '<p>Hello {{firstName}}</p>', from: 'news@bench.example.com', audienceType: 'ALL', type: 'MARKETING' })).data;
    const t0 = Date.now();
    await call('POST', `/campaigns/${campaign.id}/send`);

    // SIGKILL at random moments while it sends (once messages flow again since the start), restarting after each.
    const kills = [];
    for (let k = 0; k < KILLS && receiver.count - before < n; k++) {
      const flowing = receiver.count;
      const deadline = Date.now() + 120_000;
      while (receiver.count <= flowing && Date.now() < deadline) await sleep(20);
      await sleep(Math.floor(Math.random() * (ctx.quick ? 1_500 : 10_000)));
      app.child.kill('SIGKILL');
      await app.exited;
      await app.stop(); // cleans up only what that start made for itself (not the shared database)
      kills.push({ atS: Math.round((Date.now() - t0) / 100) / 10, received: receiver.count - before });
      app = await start();
      call = projectApi(app.url, project.secretKey);
    }
    ctx.log(`${mode}: kills ${JSON.stringify(kills)}`);

    // Emails stranded by a kill are picked up by the sweeps (queued > 2 min; sending past its lease).
    let final;
    for (const deadline = Date.now() + 1_200_000; ; await sleep(1_000)) {
      final = await call('GET', `/campaigns/${campaign.id}`);
      if (final.status === 'SENT' || Date.now() > deadline) break;
    }
    const seconds = (Date.now() - t0) / 1000;
    // What the service itself tells the user to expect of a resend (measured on its own hand-overs, flushed every 5 s).
    await sleep(6_000);
    const predicted = (await call('GET', `/campaigns/${campaign.id}/stats`)).uncertainArrivedShare;
    const rows = await query(`SELECT to_address, status, error FROM emails WHERE campaign_id = $1`, [campaign.id]);
    const uncertain = rows.filter((r) => r.status === 'uncertain');
    const uncertainAddresses = new Set(uncertain.map((r) => r.to_address));
    const uncertainArrived = uncertain.filter((r) => receiver.perRecipient.has(r.to_address)).length;
    const failed = rows.filter((r) => r.status === 'failed').length;
    let duplicates = 0;
    for (const c of receiver.perRecipient.values()) if (c > 1) duplicates++;
    let missing = 0;
    let missingNotUncertain = 0;
    for (let i = 0; i < n; i++) {
      const to = `r${i}@crash.example`;
      if (receiver.perRecipient.has(to)) continue;
      missing++;
      if (!uncertainAddresses.has(to)) missingNotUncertain++;
    }
    const sentRows = rows.filter((r) => r.status === 'sent' || r.status === 'delivered').length;
    const consistent = final.status === 'SENT' && rows.length === n && sentRows + uncertain.length === n && final.sentCount === sentRows && failed === 0;
    ctx.log(
      `${mode}: ${final.status} after ${seconds.toFixed(1)} s; received ${receiver.count - before}, duplicates ${duplicates}, missing ${missing} ` +
        `(not uncertain: ${missingNotUncertain}), uncertain ${uncertain.length} (received anyway: ${uncertainArrived}), failed ${failed}, ` +
        `rows ${rows.length}, sentCount ${final.sentCount} vs ${sentRows} sent rows; the service's measured share ${predicted}`,
    );
    const label = `${n.toLocaleString('en')} recipients, ${kills.length} SIGKILLs`;
    return [
      row(`crash run (${label}): messages received`, mode, receiver.count - before, 'msgs'),
      row('crash run: recipients who got a duplicate', mode, duplicates, '', { max: 0 }),
      row('crash run: recipients missing and not uncertain', mode, missingNotUncertain, '', { max: 0 }),
      row('crash run: uncertain emails per kill', mode, Math.round((uncertain.length / Math.max(1, kills.length)) * 10) / 10, '', { max: 5 }),
      row('crash run: share of uncertain emails that had arrived', mode, uncertain.length ? `${Math.round((uncertainArrived / uncertain.length) * 100)}%` : 'none', '', '<= 25%', !uncertain.length || uncertainArrived / uncertain.length <= 0.25),
      row("crash run: share of uncertain emails that arrive, as the service measures it (campaign stats)", mode, predicted === null ? 'none' : `${Math.round(predicted * 100)}%`, ''),
      row('crash run: campaign SENT, counters equal to its rows', mode, consistent ? 'yes' : 'no', '', 'yes', consistent),
      row('crash run: seconds from send to SENT', mode, Math.round(seconds), 's'),
    ];
  } finally {
    await app.stop();
    await receiver.close();
    if (database) await database.drop().catch(() => undefined);
    if (database) await dropRedisPrefix(redisPrefix).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { run };
