#!/usr/bin/env node
'use strict';
// `npm run bench [-- <suite>... ] [--modes=embedded,services] [--quick] [--strict] [--markdown] [--from=<results.json>]`
// Runs bench/suites/*.js (or the named ones) and prints one table of figures. See bench/README.md.
// `--markdown` prints the table in Markdown (the form of bench/README.md's table); `--from=` prints
// a saved bench/results/*.json instead of running anything.
const { mkdirSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');

function parseArgs(argv) {
  const args = { suites: [], modes: undefined, quick: false, strict: false, markdown: false, from: undefined };
  for (const arg of argv) {
    if (arg === '--quick') args.quick = true;
    else if (arg === '--strict') args.strict = true;
    else if (arg === '--markdown') args.markdown = true;
    else if (arg.startsWith('--from=')) args.from = arg.slice(7);
    else if (arg.startsWith('--modes=')) args.modes = arg.slice(8).split(',').filter(Boolean);
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else args.suites.push(arg.replace(/\.js$/, ''));
  }
  return args;
}

function format(value) {
  if (typeof value !== 'number') return String(value ?? '');
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function printTable(rows) {
  const headers = ['suite', 'metric', 'mode', 'value', 'unit', 'target', 'ok?'];
  const cells = rows.map((r) => [r.suite, r.metric, r.mode ?? '', format(r.value), r.unit ?? '', r.target ?? '', r.ok === undefined ? '' : r.ok ? 'yes' : 'NO']);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((v, i) => (i === 3 ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ').trimEnd();
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

/** `1234.5` → `1,235`; keeps format()'s precision for small values. */
function formatGrouped(value) {
  const text = format(value);
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) >= 1000 ? Number(text).toLocaleString('en-US') : text;
}

function withUnit(value, unit) {
  const text = formatGrouped(value);
  return unit && typeof value === 'number' ? `${text} ${unit}` : text;
}

/** Markdown cells: `|` escaped, newlines flattened. */
function cell(text) {
  return String(text ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ').trim();
}

/** The table as bench/README.md shows it; `date` is the run's, unless a row carries its own. */
function printMarkdown(rows, date) {
  console.log('| suite | metric | mode | value | baseline (same run) | target | date |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const baseline = r.baseline === undefined ? '' : withUnit(r.baseline, r.baselineUnit ?? r.unit);
    const target = r.target ? `${r.target}${r.ok === false ? ' (missed)' : ''}` : r.ok === false ? 'missed' : '';
    const cells = [r.suite, r.metric, r.mode ?? '', withUnit(r.value, r.unit), baseline, target, r.date ?? date ?? ''];
    console.log(`| ${cells.map(cell).join(' | ')} |`);
  }
}

function printRows(rows, args, at) {
  if (args.markdown) printMarkdown(rows, at ? String(at).slice(0, 10) : undefined);
  else printTable(rows);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.from) {
    const saved = JSON.parse(readFileSync(args.from, 'utf8'));
    const rows = (saved.rows ?? []).filter((r) => args.suites.length === 0 || args.suites.includes(r.suite));
    printRows(rows, args, saved.at);
    return;
  }
  const lib = require('./lib');
  const suitesDir = join(__dirname, 'suites');
  const available = readdirSync(suitesDir).filter((f) => f.endsWith('.js')).map((f) => basename(f, '.js')).sort();
  const selected = args.suites.length ? args.suites : available;
  for (const name of selected) if (!available.includes(name)) throw new Error(`no suite "${name}" (have: ${available.join(', ')})`);

  lib.ensureBuilt();
  const servicesUp = await lib.servicesAvailable();
  const wanted = args.modes ?? (process.env.BENCH_MODES ? process.env.BENCH_MODES.split(',') : ['embedded', 'services']);
  const modes = wanted.filter((m) => m === 'embedded' || (m === 'services' && servicesUp));
  if (wanted.includes('services') && !servicesUp) process.stderr.write('bench: PostgreSQL/Redis not reachable, services mode skipped\n');

  const rows = [];
  let failed = 0;
  for (const name of selected) {
    const suite = require(join(suitesDir, `${name}.js`));
    const ctx = {
      ...lib,
      lib,
      suite: name,
      modes,
      quick: args.quick,
      /** Seconds for a load phase: 10, or 3 with --quick. */
      duration: args.quick ? 3 : 10,
      log: (msg) => process.stderr.write(`[${name}] ${msg}\n`),
    };
    const t0 = Date.now();
    process.stderr.write(`bench: ${name}…\n`);
    try {
      const produced = (await suite.run(ctx)) || [];
      for (const r of produced) rows.push({ suite: name, ...r });
    } catch (err) {
      failed++;
      process.stderr.write(`bench: suite ${name} failed: ${err && err.stack ? err.stack : err}\n`);
      rows.push({ suite: name, metric: 'ERROR', mode: '', value: String(err && err.message ? err.message : err).split('\n')[0].slice(0, 80), unit: '', target: '', ok: false });
    }
    process.stderr.write(`bench: ${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }

  const at = new Date().toISOString();
  const misses = rows.filter((r) => r.ok === false).length;
  const summary = `${rows.length} figures, ${misses} below target, ${failed} suites failed`;
  if (args.markdown) {
    // stdout is the Markdown table alone, so `npm run bench -- --markdown > table.md` works.
    printRows(rows, args, at);
    process.stderr.write(`bench: ${summary}\n`);
  } else {
    console.log('');
    printRows(rows, args, at);
    console.log(`\n${summary}`);
  }
  try {
    const dir = join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${at.replace(/[:.]/g, '-')}.json`), JSON.stringify({ at, node: process.version, rows }, null, 2));
  } catch {
    // results are a convenience; the table is the output
  }
  process.exitCode = failed || (args.strict && misses) ? 1 : 0;
}

main().catch((err) => {
  process.stderr.write(`bench: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
