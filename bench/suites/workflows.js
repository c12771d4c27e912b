'use strict';
// Issue 14: workflows.
// 1. /v1/track throughput with 5 enabled workflows listening to the tracked event, against none
//    (every request a new contact, so every tracked event must start 5 executions), in
//    alternating rounds (BENCH_WORKFLOWS_ROUNDS, 3), medians compared.
// 2. 10,000 executions whose 1-minute DELAY falls due together (started by 10,000 events written
//    in one statement and read by the outbox): lateness of their resumption and steps/s.
// 3. RSS of the service while 100,000 executions wait for an event (seeded set-based).
// BENCH_WORKFLOWS_ONLY=track runs part 1 alone. A mode that fails reports its error and the
// figures it had, and the next mode still runs.
const { Client } = require('pg');
const { databaseUrlOf } = require('../lib/database-url');

function trackRequests(publicKey, event, prefix) {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/v1/track',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${publicKey}` },
      setupRequest(req) {
        return { ...req, body: JSON.stringify({ email: `${prefix}${n++}@bench.example.com`, event, data: { plan: 'pro' } }) };
      },
    },
  ];
}

async function waitUntil(check, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, projectApi, load, median, row, sleep } = ctx;
  const rows = [];
  for (const mode of ctx.modes) {
    const app = await startApp({ mode });
    try {
      const project = await createProject(app.url);
      const call = projectApi(app.url, project.secretKey);
      const workflow = async (eventName, steps) => {
        const wf = await call('POST', '/workflows', { name: eventName, eventName });
        let from = wf.steps[0].id;
        for (const s of steps) {
          const step = await call('POST', `/workflows/${wf.id}/steps`, s);
          await call('POST', `/workflows/${wf.id}/transitions`, { fromStepId: from, toStepId: step.id });
          from = step.id;
        }
        await call('PATCH', `/workflows/${wf.id}`, { enabled: true });
        return wf.id;
      };
      const db = new Client({ connectionString: await databaseUrlOf(app) });
      await db.connect();
      const count = async (sql, params) => Number((await db.query(sql, params)).rows[0].n);
      try {
        // 1. Track with and without listening workflows, alternating rounds (none, then 5
        //    workflows) so a drift of the machine's speed falls on both sides; the medians are
        //    compared. Each round's addresses are new, and a round with workflows is followed by
        //    the wait until its executions all finished, so its backlog never slows the next.
        const base = { url: app.url, connections: 50, duration: ctx.duration };
        const ids = [];
        for (let i = 0; i < 5; i++) ids.push(await workflow('bench.wf', [{ type: 'EXIT', config: { reason: `wf ${i}` } }]));
        // Warm-up on both paths (the JIT, the pools, the start statement's plan), so the first
        // round's "none" does not carry it alone.
        await load({ ...base, duration: 3, requests: trackRequests(project.publicKey, 'bench.none', 'warm') });
        await load({ ...base, duration: 3, requests: trackRequests(project.publicKey, 'bench.wf', 'warmwf') });
        let started = 0;
        let expected = 0;
        /** Waits until every tracked `bench.wf` event's 5 executions finished; seconds it took. */
        const settle = async () => {
          // Requests the client gave up on may still have been tracked: count the stored events
          // (again at each check: requests still in flight when the load ended may store theirs later).
          const t0 = Date.now();
          started = await waitUntil(async () => {
            const n = await count(`SELECT count(*) AS n FROM workflow_executions WHERE workflow_id = ANY($1::uuid[]) AND status = 'EXITED'`, [ids]);
            expected = 5 * (await count(`SELECT count(*) AS n FROM events WHERE project_id = $1 AND name = 'bench.wf'`, [project.id]));
            return n >= expected ? n : Date.now() - t0 > 170_000 ? n : undefined;
          }, 180_000, 500);
          return (Date.now() - t0) / 1000;
        };
        await settle();
        const rounds = Math.max(1, Number(process.env.BENCH_WORKFLOWS_ROUNDS ?? 3));
        const noneRps = [];
        const withRps = [];
        let finishedAfter = 0;
        for (let r = 0; r < rounds; r++) {
          noneRps.push((await load({ ...base, requests: trackRequests(project.publicKey, 'bench.none', `none${r}-`) })).rps);
          withRps.push((await load({ ...base, requests: trackRequests(project.publicKey, 'bench.wf', `wf${r}-`) })).rps);
          finishedAfter = Math.max(finishedAfter, await settle());
          ctx.log(`${mode}: round ${r + 1}: track ${Math.round(noneRps[r])} req/s without workflows, ${Math.round(withRps[r])} with 5 (${Math.round((withRps[r] / noneRps[r] - 1) * 100)}%)`);
        }
        const none = median(noneRps);
        const withWf = median(withRps);
        ctx.log(`${mode}: track medians ${Math.round(none)} → ${Math.round(withWf)} req/s; ${started}/${expected} executions finished, at most ${finishedAfter.toFixed(1)} s after a load`);
        rows.push(row(`/v1/track req/s @50 conns, no workflow listening (median of ${rounds})`, mode, Math.round(none), 'req/s'));
        rows.push(row(`/v1/track req/s @50 conns, 5 workflows listening (median of ${rounds})`, mode, Math.round(withWf), 'req/s', { min: Math.round(none * 0.8) }, { baseline: Math.round(none) }));
        rows.push(row('executions started and finished / expected (5 per tracked event)', mode, `${started}/${expected}`, '', 'all', started === expected));
        rows.push(row('seconds after a load until every execution finished (worst round)', mode, Number(finishedAfter.toFixed(1)), 's'));
        if (process.env.BENCH_WORKFLOWS_ONLY === 'track') continue;

        // 2. 10,000 DELAYs due together.
        const N = 10_000;
        await workflow('bench.delay', [{ type: 'DELAY', config: { amount: 1, unit: 'minutes' } }, { type: 'EXIT', config: { reason: 'delayed' } }]);
        await db.query(
          `WITH c AS (
             INSERT INTO contacts (project_id, email) SELECT $1, 'delay' || g || '@bench.example.com' FROM generate_series(1, $2) g RETURNING id
           ) INSERT INTO events (project_id, contact_id, name) SELECT $1, id, 'bench.delay' FROM c`,
          [project.id, N],
        );
        // Every execution reached its DELAY (where starting them takes over a minute, as embedded,
        // the first have already woken and exited: the spread below says so).
        const waiting = await waitUntil(async () => {
          const n = await count(`SELECT count(*) AS n FROM workflow_executions x JOIN workflows w ON w.id = x.workflow_id WHERE w.event_name = 'bench.delay' AND x.status IN ('WAITING', 'EXITED')`);
          return n >= N ? n : undefined;
        }, 600_000, 500);
        const spread = (
          await db.query(
            `SELECT extract(epoch FROM max(r.started_at) - min(r.started_at)) AS s FROM workflow_execution_steps r JOIN workflow_executions x ON x.id = r.execution_id
              JOIN workflows w ON w.id = x.workflow_id WHERE w.event_name = 'bench.delay' AND r.type = 'DELAY'`,
          )
        ).rows[0].s;
        ctx.log(`${mode}: ${waiting} executions reached their DELAY; due times spread over ${Number(spread).toFixed(1)} s`);
        await waitUntil(async () => {
          const n = await count(`SELECT count(*) AS n FROM workflow_executions x JOIN workflows w ON w.id = x.workflow_id WHERE w.event_name = 'bench.delay' AND x.status = 'EXITED'`);
          return n >= N ? n : undefined;
        }, 600_000, 500);
        const late = (
          await db.query(
            `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY l) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY l) AS p99, max(l) AS max
               FROM (SELECT extract(epoch FROM r.completed_at - (r.started_at + interval '60 seconds')) AS l
                       FROM workflow_execution_steps r JOIN workflow_executions x ON x.id = r.execution_id JOIN workflows w ON w.id = x.workflow_id
                      WHERE w.event_name = 'bench.delay' AND r.type = 'DELAY') t`,
          )
        ).rows[0];
        const window = (
          await db.query(
            `SELECT count(*) AS steps, extract(epoch FROM max(r.completed_at) - min(r.started_at + interval '60 seconds')) AS s
               FROM workflow_execution_steps r JOIN workflow_executions x ON x.id = r.execution_id JOIN workflows w ON w.id = x.workflow_id
              WHERE w.event_name = 'bench.delay' AND r.type IN ('DELAY', 'EXIT')`,
          )
        ).rows[0];
        const stepsPerSecond = Math.round(Number(window.steps) / Math.max(Number(window.s), 0.001));
        rows.push(row('10,000 DELAYs due together: resumed late by, p50', mode, Number(Number(late.p50).toFixed(2)), 's'));
        rows.push(row('10,000 DELAYs due together: resumed late by, max', mode, Number(Number(late.max).toFixed(2)), 's', { max: 10 }));
        rows.push(row('engine steps/s while they resume (DELAY wake + EXIT)', mode, stepsPerSecond, 'steps/s', mode === 'services' ? { min: 1000 } : undefined));

        // 3. RSS while 100,000 executions wait for an event.
        const M = 100_000;
        const waitWf = await workflow('bench.wait', [{ type: 'WAIT_FOR_EVENT', config: { eventName: 'bench.never' } }]);
        await sleep(3000);
        const rssBefore = app.rssBytes();
        await db.query(
          `WITH c AS (
             INSERT INTO contacts (project_id, email) SELECT $1, 'wait' || g || '@bench.example.com' FROM generate_series(1, $2) g RETURNING id
           ), w AS (SELECT id, version, (SELECT s.id FROM workflow_steps s WHERE s.workflow_id = $3 AND s.type = 'WAIT_FOR_EVENT') AS step FROM workflows WHERE id = $3)
           INSERT INTO workflow_executions (project_id, workflow_id, version, contact_id, status, current_step_id, steps_run, wait_event, wait_since)
           SELECT $1, w.id, w.version, c.id, 'WAITING', w.step, 2, 'bench.never', now() FROM c, w`,
          [project.id, M, waitWf],
        );
        let peak = rssBefore;
        const sampler = setInterval(() => (peak = Math.max(peak, app.rssBytes())), 200);
        await sleep(ctx.quick ? 10_000 : 30_000);
        clearInterval(sampler);
        const rssAfter = app.rssBytes();
        rows.push(row('RSS before 100,000 waiting executions', mode, Math.round(rssBefore / 1048576), 'MB'));
        rows.push(row('RSS with 100,000 waiting (30 s of sweeps), peak', mode, Math.round(peak / 1048576), 'MB', { max: Math.round(rssBefore / 1048576) + 64 }));
        rows.push(row('RSS with 100,000 waiting, at the end', mode, Math.round(rssAfter / 1048576), 'MB'));
      } finally {
        await db.end();
      }
    } catch (err) {
      ctx.log(`${mode}: ${err && err.stack ? err.stack : err}`);
      rows.push(row('ERROR', mode, String(err.message || err).slice(0, 60), '', '', false));
    } finally {
      await app.stop();
    }
  }
  return rows;
}

module.exports = { run };
