#!/usr/bin/env node
'use strict';
// `npm run bench [-- <suite>... ] [--modes=embedded,services] [--quick] [--strict] [--markdown] [--save=<run.json>]`
// `npm run bench -- --from=<run.json>[,<run.json>...] [--markdown | --readme] [<suite>...]`
// Runs bench/suites/*.js (or the named ones) and prints one table of figures. See bench/README.md.
// Every run is saved as JSON (date, commit, machine, rows) in bench/results/, and in `--save=`'s
// file too. `--markdown` prints the table in Markdown (the form of bench/README.md's table);
// `--from=` prints saved runs instead of running anything (a later run's figure replaces an
// earlier one's), and with `--readme` writes them as bench/README.md's table, saying which runs.
const { dirname, basename, join, resolve } = require('node:path');
const { mkdirSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { machineOf, markdownTable, plainTable, savedRun, writeReadmeTable } = require('./lib/table');

function parseArgs(argv) {
  const args = { suites: [], modes: undefined, quick: false, strict: false, markdown: false, readme: false, from: undefined, save: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') args.quick = true;
    else if (arg === '--strict') args.strict = true;
    else if (arg === '--markdown') args.markdown = true;
    else if (arg === '--readme') args.readme = true;
    else if (arg === '--from' || arg === '--save') {
      if (!argv[i + 1]) throw new Error(`${arg} needs a file`);
      args[arg.slice(2)] = argv[++i];
    } else if (arg.startsWith('--from=')) args.from = arg.slice(7);
    else if (arg.startsWith('--save=')) args.save = arg.slice(7);
    else if (arg.startsWith('--modes=')) args.modes = arg.slice(8).split(',').filter(Boolean);
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else args.suites.push(arg.replace(/\.js$/, ''));
  }
  if (args.readme && !args.from) throw new Error('--readme writes a saved run: give it --from=<run.json>');
  return args;
}

/** The rows of saved runs, oldest first: each dated by its run, a later run's row in place of an earlier one's for the same figure. */
function mergedRows(runs) {
  const byFigure = new Map();
  for (const { saved } of runs) {
    const date = saved.at ? String(saved.at).slice(0, 10) : undefined;
    for (const row of saved.rows ?? []) byFigure.set(`${row.suite}\u0000${row.metric.trim()}\u0000${row.mode ?? ''}`, { ...row, date: row.date ?? date });
  }
  return [...byFigure.values()];
}

function printRows(rows, args, at) {
  console.log(args.markdown ? markdownTable(rows, at ? String(at).slice(0, 10) : undefined) : plainTable(rows));
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.from) {
    // Several runs (`--from=a.json,b.json`): a later run's row replaces an earlier one's of the same suite, metric and mode.
    const files = args.from.split(',').filter(Boolean);
    const runs = files.map((file) => ({ file: resolve(file), saved: JSON.parse(readFileSync(file, 'utf8')) }));
    const rows = mergedRows(runs).filter((r) => args.suites.length === 0 || args.suites.includes(r.suite));
    if (args.readme) {
      writeReadmeTable(join(__dirname, 'README.md'), runs, rows);
      process.stderr.write(`bench: bench/README.md's table is now ${rows.length} figures of ${files.join(', ')}\n`);
    } else printRows(rows, args, runs.length === 1 ? runs[0].saved.at : undefined);
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

  const startedAt = new Date().toISOString();
  const machine = machineOf();
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

  const run = savedRun({ at: startedAt, machine, suites: selected, modes, quick: args.quick, rows });
  const at = run.at;
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
  const json = `${JSON.stringify(run, null, 2)}\n`;
  try {
    const dir = join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${at.replace(/[:.]/g, '-')}.json`), json);
  } catch {
    // bench/results/ is a convenience; --save is the file asked for
  }
  if (args.save) {
    mkdirSync(dirname(resolve(args.save)), { recursive: true });
    writeFileSync(args.save, json);
    process.stderr.write(`bench: saved the run in ${args.save}\n`);
  }
  process.exitCode = failed || (args.strict && misses) ? 1 : 0;
}

main().catch((err) => {
  process.stderr.write(`bench: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
