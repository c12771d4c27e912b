// ESLint rule `mailroom/module-boundaries`: units of src/ import one way, down the layers of
// scripts/module-layers.mjs, and a module only through its `index.ts` (docs/architecture.md,
// "Layers" and "Module boundaries").
//
// For an import from one unit to another (a unit: a module, platform, the app's assembly):
// - `upward`: the target's layer is above the importer's (unless the edge is PENDING there);
// - `cycle`: the two units are in a cycle of the graph without the PENDING edges;
// - `internal`: the target module's index.ts does not list the file;
// - `viaIndex`: the import names a module's file rather than the module (`'../emails'`), which
//   `node scripts/module-imports.mjs` rewrites. Units still in a cycle through a PENDING edge do
//   the opposite: they name the listed file itself (`pendingIndex` otherwise), so Node loads only
//   that file and the two modules' index files never meet in a loop, which would leave a class
//   undefined when Nest reads its constructor's parameter types.
import { readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { PENDING, cycleIndex, indexSpecifier, layerOf, moduleOf, rankOf, resolveSpecifier, settledGraph, unitGraph, unitOf } from '../module-layers.mjs';

const publicFilesCache = new Map();
const graphCache = new Map();

/** Absolute paths (without extension) of the files `<moduleDir>/index.ts` re-exports. */
function publicFilesOf(moduleDir) {
  const index = join(moduleDir, 'index.ts');
  let mtime = 0;
  try {
    mtime = statSync(index).mtimeMs;
  } catch {
    return null;
  }
  const cached = publicFilesCache.get(index);
  if (cached && cached.mtime === mtime) return cached.files;
  const files = new Set([join(moduleDir, 'index')]);
  for (const match of readFileSync(index, 'utf8').matchAll(/^export\s[^;]*?from\s+'(\.[^']+)'/gms)) {
    files.add(resolveSpecifier(index, match[1]));
  }
  publicFilesCache.set(index, { mtime, files });
  return files;
}

/** The cycles of src/ with and without the PENDING edges, read once per lint run. */
function cyclesFor(srcDir) {
  if (!graphCache.has(srcDir)) {
    const edges = unitGraph(srcDir);
    graphCache.set(srcDir, { all: cycleIndex(edges), settled: cycleIndex(settledGraph(edges)) });
  }
  return graphCache.get(srcDir);
}

const together = (index, a, b) => index.has(a) && index.get(a) === index.get(b);

/** @type {import('eslint').Rule.RuleModule} */
export const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'import down the layers of scripts/module-layers.mjs, and another module only through its index.ts' },
    schema: [{ type: 'object', properties: { srcDir: { type: 'string' } }, additionalProperties: false }],
    messages: {
      upward: "'{{specifier}}': {{from}} ({{fromLayer}}) must not import {{to}} ({{toLayer}}), a higher layer: move the helper down, or let {{to}} fill a registry {{from}} owns (scripts/module-layers.mjs).",
      cycle: "'{{specifier}}': {{from}} and {{to}} import each other through other units: break the cycle (docs/architecture.md, \"Layers\").",
      internal: "'{{specifier}}' reaches into module '{{module}}': import what src/modules/{{module}}/index.ts exports (or export it there if it is meant for other modules).",
      viaIndex: "'{{specifier}}': import module '{{module}}' through its index ('{{index}}'); node scripts/module-imports.mjs rewrites it.",
      pendingIndex: "'{{specifier}}': {{from}} and {{to}} are still in a cycle (PENDING in scripts/module-layers.mjs): name the listed file itself, not the index.",
    },
  },
  create(context) {
    const srcDir = resolve(context.options[0]?.srcDir ?? 'src');
    const filename = context.filename;
    const fromRel = relative(srcDir, filename);
    if (fromRel.startsWith('..')) return {};
    const from = unitOf(fromRel);
    if (!from) return {};

    function check(node) {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolveSpecifier(filename, specifier);
      const to = unitOf(relative(srcDir, target));
      if (!to || to === from) return;
      const edge = `${from} -> ${to}`;
      const data = { specifier, from, to, fromLayer: layerOf(from), toLayer: layerOf(to) };
      const pending = PENDING.includes(edge);
      if (rankOf(to) > rankOf(from) && !pending) {
        context.report({ node: node.source, messageId: 'upward', data });
        return;
      }
      const cycles = cyclesFor(srcDir);
      if (!pending && together(cycles.settled, from, to)) {
        context.report({ node: node.source, messageId: 'cycle', data });
        return;
      }
      const module = moduleOf(to);
      if (!module) return;
      const moduleDir = join(srcDir, 'modules', module);
      const publicFiles = publicFilesOf(moduleDir);
      if (!publicFiles?.has(target)) {
        context.report({ node: node.source, messageId: 'internal', data: { specifier, module } });
        return;
      }
      const viaIndex = target === join(moduleDir, 'index');
      const inCycle = together(cycles.all, from, to);
      if (inCycle && viaIndex) context.report({ node: node.source, messageId: 'pendingIndex', data });
      if (!inCycle && !viaIndex) {
        context.report({ node: node.source, messageId: 'viaIndex', data: { specifier, module, index: indexSpecifier(filename, moduleDir) } });
      }
    }

    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'module-boundaries': moduleBoundaries } };
