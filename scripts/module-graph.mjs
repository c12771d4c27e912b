#!/usr/bin/env node
// The module graph of src/ by layer (scripts/module-layers.mjs), as a Mermaid picture.
//   node scripts/module-graph.mjs           prints the picture, the cycles and the upward imports
//   node scripts/module-graph.mjs --write   rewrites the picture in docs/architecture.md
//   node scripts/module-graph.mjs --check   fails on a cycle of units, an upward import, or a stale
//                                           picture in docs/architecture.md (`npm run lint:modules`)
// Edges into the platform layer are left out of the picture: every unit uses it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYERS, PENDING, cyclesOf, rankOf, settledGraph, unitGraph, upwardEdges } from './module-layers.mjs';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const DOC = join(ROOT, 'docs', 'architecture.md');
const BEGIN = '<!-- module-graph:begin (npm run docs:modules) -->';
const END = '<!-- module-graph:end -->';

const nodeId = (unit) => unit.replace(/^modules\//, '').replace(/[^A-Za-z0-9]/g, '_');
const label = (unit) => unit.replace(/^modules\//, '');

function mermaid(edges) {
  const lines = ['```mermaid', 'flowchart BT'];
  for (const layer of LAYERS) {
    if (layer.name === 'platform') continue;
    lines.push(`  subgraph ${layer.name}`);
    for (const unit of layer.units) lines.push(`    ${nodeId(unit)}["${label(unit)}"]`);
    lines.push('  end');
  }
  lines.push('  platform[("platform, config, i18n")]');
  const shown = [...edges.values()].filter(({ to }) => rankOf(to) > 0).sort((a, b) => `${a.from}${a.to}`.localeCompare(`${b.from}${b.to}`));
  for (const { from, to } of shown) lines.push(`  ${nodeId(from)} --> ${nodeId(to)}`);
  lines.push('```');
  return lines.join('\n');
}

const edges = unitGraph(join(ROOT, 'src'));
const cycles = cyclesOf(settledGraph(edges));
const pendingCycles = cyclesOf(edges);
const upward = upwardEdges(edges);
const picture = mermaid(edges);
const mode = process.argv[2];

const doc = readFileSync(DOC, 'utf8');
const start = doc.indexOf(BEGIN);
const end = doc.indexOf(END);
if (start < 0 || end < start) throw new Error(`docs/architecture.md lacks the ${BEGIN} … ${END} block`);
const updated = `${doc.slice(0, start + BEGIN.length)}\n${picture}\n${doc.slice(end)}`;

if (mode === '--write') {
  writeFileSync(DOC, updated);
  console.log('docs/architecture.md: module graph written');
} else if (mode === '--check') {
  const problems = [
    ...cycles.map((cycle) => `cycle of units: ${cycle.join(', ')}`),
    ...upward.map(({ from, to, files }) => `upward import ${from} -> ${to}: ${files.join('; ')}`),
    ...(updated === doc ? [] : ['docs/architecture.md: the module graph is stale (run npm run docs:modules)']),
  ];
  for (const problem of problems) console.error(problem);
  if (problems.length) process.exit(1);
  console.log(`module graph: ${edges.size} edges, 0 cycles, 0 upward imports; ${PENDING.length} pending imports close ${pendingCycles.length} cycle(s)`);
} else {
  console.log(picture);
  console.log(`\ncycles: ${cycles.length} (${pendingCycles.length} with the ${PENDING.length} pending imports)`);
  for (const cycle of pendingCycles) console.log(`  pending: ${cycle.join(', ')}`);
  for (const cycle of cycles) console.log(`  ${cycle.join(', ')}`);
  console.log(`upward imports: ${upward.length}`);
  for (const { from, to, files } of upward) console.log(`  ${from} -> ${to}\n    ${files.join('\n    ')}`);
}
