'use strict';
// Foundation figures (issue 2's "Done when"): cold start of the built service in embedded mode,
// idle memory, and the authenticated no-op `GET /v1/ping` under 50 connections in each mode.

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { startApp, createProject, load, row, sleep } = ctx;
  const rows = [];

  // Cold start: fresh data dir, so it includes creating the PGlite database and all migrations.
  const cold = await startApp({ mode: 'embedded' });
  try {
    rows.push(row('cold start (spawn → /health 200, fresh data dir)', 'embedded', Math.round(cold.startupMs), 'ms', { max: 10_000 }));
    await sleep(2000);
    rows.push(row('idle RSS after start', 'embedded', Math.round(cold.rssBytes() / 1024 / 1024), 'MB', { max: 400 }));
  } finally {
    await cold.stop({ keepData: true });
  }
  // Warm start: same data dir, database already migrated.
  const warm = await startApp({ mode: 'embedded', dataDir: cold.dataDir });
  rows.push(row('warm start (existing data dir)', 'embedded', Math.round(warm.startupMs), 'ms', { max: 10_000 }));
  await warm.stop();
  require('node:fs').rmSync(cold.dataDir, { recursive: true, force: true });

  for (const mode of ctx.modes) {
    const app = await startApp({ mode });
    try {
      if (mode === 'services') rows.push(row('cold start (spawn → /health 200, fresh database)', mode, Math.round(app.startupMs), 'ms', { max: 10_000 }));
      const project = await createProject(app.url);
      const options = { url: `${app.url}/v1/ping`, connections: 50, duration: ctx.duration, headers: { authorization: `Bearer ${project.secretKey}` } };
      await load({ ...options, duration: 1 }); // warm-up (JIT, pools)
      const result = await load(options);
      if (result.non2xx || result.errors) ctx.log(`${mode}: ${result.non2xx} non-2xx, ${result.errors} errors ${JSON.stringify(result.statusCodes)}`);
      rows.push(row('GET /v1/ping req/s @50 conns', mode, Math.round(result.rps), 'req/s', { min: 1000 }));
      rows.push(row('GET /v1/ping p50 @50 conns', mode, result.p50, 'ms'));
      rows.push(row('GET /v1/ping p99 @50 conns', mode, result.p99, 'ms', { max: 250 }));
      rows.push(row('GET /v1/ping non-2xx', mode, result.non2xx + result.errors, 'count', { max: 0 }));
      rows.push(row('RSS after load', mode, Math.round(app.rssBytes() / 1024 / 1024), 'MB'));
    } finally {
      await app.stop();
    }
  }
  return rows;
}

module.exports = { run };
