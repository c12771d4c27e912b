'use strict';
// Everything a suite needs: `const { startApp, createProject, load, measure, row } = require('../lib');`
const { startApp, createProject, projectApi, servicesAvailable, freePort, sleep } = require('./app');
const { ensureBuilt, ROOT } = require('./build');
const { load } = require('./load');
const { measure, median, percentile } = require('./measure');

/**
 * One row of the table. `target` is { max } or { min } (or a free string, then pass `ok` yourself).
 * The last argument is `ok`, or `{ ok?, baseline?, baselineUnit? }`: `baseline` is the value of
 * the baseline measured in the same run (in `baselineUnit`, default `unit`), for rows that are
 * read against one (a share, a ratio, a figure beside its floor).
 * row('cold start', 'embedded', 1234, 'ms', { max: 5000 })
 * row('POST /v1/track req/s', 'services', 2100, 'req/s', { min: 1500 }, { baseline: 3900 })
 */
function row(metric, mode, value, unit, target, okOrOptions) {
  const options = okOrOptions !== null && typeof okOrOptions === 'object' ? okOrOptions : { ok: okOrOptions };
  let targetText = '';
  let pass = options.ok;
  if (target && typeof target === 'object') {
    if (target.max !== undefined) {
      targetText = `<= ${target.max}`;
      if (pass === undefined) pass = value <= target.max;
    } else if (target.min !== undefined) {
      targetText = `>= ${target.min}`;
      if (pass === undefined) pass = value >= target.min;
    }
  } else if (typeof target === 'string') {
    targetText = target;
  }
  const result = { metric, mode, value, unit, target: targetText, ok: pass };
  if (options.baseline !== undefined) {
    result.baseline = options.baseline;
    if (options.baselineUnit !== undefined && options.baselineUnit !== unit) result.baselineUnit = options.baselineUnit;
  }
  return result;
}

/**
 * What to start for each mode: embedded as is; services once as one process and once as
 * `PROCESSES=2` (one copy per core of the 2-core reference machine), labelled `services×2`.
 */
function deployments(modes) {
  return modes.flatMap((mode) =>
    mode === 'services'
      ? [{ mode, label: 'services', env: {} }, { mode, label: 'services×2', env: { PROCESSES: '2' } }]
      : [{ mode, label: mode, env: {} }],
  );
}

module.exports = { deployments, startApp, createProject, projectApi, servicesAvailable, freePort, sleep, ensureBuilt, ROOT, load, measure, median, percentile, row };
