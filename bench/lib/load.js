'use strict';
const autocannon = require('autocannon');

/**
 * Runs autocannon and returns the figures suites report.
 * options: autocannon's own ({ url, connections, duration (s), method, headers, body, requests, pipelining, amount, ... })
 * Returns { rps (mean req/s), p50, p90, p99 (ms), total, non2xx, errors, timeouts, statusCodes, raw }.
 */
async function load(options) {
  const result = await autocannon({ connections: 50, duration: 10, ...options });
  const statusCodes = {};
  for (const [code, count] of Object.entries(result.statusCodeStats || {})) statusCodes[code] = count.count;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    raw: result,
  };
}

module.exports = { load };
