'use strict';

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/** The middle value (the upper one of an even count) of unsorted samples. */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Times `fn` (sync or async) `n` times after `warmup` untimed calls (default min(10, n)); milliseconds.
 * Returns { p50, p90, p99, mean, min, max, n }.
 */
async function measure(fn, n = 100, { warmup } = {}) {
  const w = warmup ?? Math.min(10, n);
  for (let i = 0; i < w; i++) await fn(i);
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return {
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p99: percentile(samples, 99),
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
    min: samples[0],
    max: samples[samples.length - 1],
    n,
  };
}

module.exports = { measure, median, percentile };
