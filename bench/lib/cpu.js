'use strict';
// CPU time of processes, read from /proc (Linux): what a run cost each process, so a throughput
// figure can be set against the machine's CPU budget (`os.availableParallelism()` cores).
const { readFileSync, readdirSync } = require('node:fs');
const { execFileSync } = require('node:child_process');

let ticksPerSecond;
function clockTicks() {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** `/proc/<pid>/stat` fields after the command: [state, ppid, …]; utime is field 14, so index 11. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), fields: stat.slice(stat.lastIndexOf(')') + 2).split(' ') };
  } catch {
    return undefined; // the process has exited
  }
}

/** CPU milliseconds (user + system) a process has used; with `children`, also its exited, waited-for children's. */
function processCpuMs(pid, { children = false } = {}) {
  const stat = statFields(pid);
  if (!stat) return 0;
  const f = stat.fields.map(Number);
  const ticks = f[11] + f[12] + (children ? f[13] + f[14] : 0);
  return (ticks * 1000) / clockTicks();
}

/**
 * CPU milliseconds of the machine's PostgreSQL server: every live `postgres` process, plus what
 * its exited backends used (counted in the postmaster's children's time once it reaped them).
 */
function postgresCpuMs() {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statFields(entry);
    if (stat && stat.comm === 'postgres') total += processCpuMs(entry, { children: true });
  }
  return total;
}

/**
 * A reading of named sources ({ name: () => ms }) now; `.since(before)` gives each source's CPU
 * milliseconds between the two readings.
 */
function cpuReading(sources) {
  const values = Object.fromEntries(Object.entries(sources).map(([name, read]) => [name, read()]));
  return {
    values,
    since(before) {
      return Object.fromEntries(Object.keys(values).map((name) => [name, values[name] - before.values[name]]));
    },
  };
}

/** The live renderer processes (docs/rendering.md) that `parentPids` forked. */
function rendererPids(parentPids) {
  const parents = new Set(parentPids.map(String));
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statFields(entry);
    if (!stat || !parents.has(stat.fields[1])) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('render-child')) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** CPU milliseconds of the renderer processes `parentPids` forked (those alive now). */
function rendererCpuMs(parentPids) {
  return rendererPids(parentPids).reduce((sum, pid) => sum + processCpuMs(pid), 0);
}

/** This process's CPU milliseconds (user + system). */
function ownCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

module.exports = { processCpuMs, postgresCpuMs, cpuReading, ownCpuMs, rendererPids, rendererCpuMs };
