#!/usr/bin/env node
// Rewrites imports of another module's file to imports of the module itself (its index.ts), as the
// rule `mailroom/module-boundaries` asks (`viaIndex`):
//   import { EmailQueueFacade } from '../emails/email-queue.facade';  →  … from '../emails';
// and joins the imports of one module that this leaves in a file. Pairs still in a cycle through a
// PENDING edge of scripts/module-layers.mjs keep naming the file, so no loop of index files forms.
// Files the index does not list are left for the rule to report. Specs are left as they are. Re-runnable: `node scripts/module-imports.mjs` (then `npm run lint`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cycleIndex, indexSpecifier, moduleOf, resolveSpecifier, sources, unitGraph, unitOf } from './module-layers.mjs';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const SRC = join(ROOT, 'src');
const cycles = cycleIndex(unitGraph(SRC));
const inCycle = (a, b) => cycles.has(a) && cycles.get(a) === cycles.get(b);

function listedFiles(moduleDir) {
  const index = join(moduleDir, 'index.ts');
  const files = new Set();
  for (const match of readFileSync(index, 'utf8').matchAll(/^export\s[^;]*?from\s+'(\.[^']+)'/gms)) files.add(resolveSpecifier(index, match[1]));
  return files;
}

/** Joins `import { a } from 'x'; import { b } from 'x';` (same kind: value or type) into one statement. */
function joinImports(text, specifiers) {
  for (const specifier of specifiers) {
    for (const kind of ['import type', 'import']) {
      const pattern = new RegExp(`^${kind} \\{([^}]*)\\} from '${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}';\\n`, 'gm');
      const found = [...text.matchAll(pattern)];
      if (found.length < 2) continue;
      const names = [...new Set(found.flatMap((m) => m[1].split(',').map((n) => n.trim()).filter(Boolean)))];
      let first = true;
      text = text.replace(pattern, () => {
        if (!first) return '';
        first = false;
        return `${kind} { ${names.join(', ')} } from '${specifier}';\n`;
      });
    }
  }
  return text;
}

let changedFiles = 0;
let rewritten = 0;
for (const file of sources(SRC)) {
  const from = unitOf(relative(SRC, file));
  if (!from) continue;
  const original = readFileSync(file, 'utf8');
  const touched = new Set();
  const text = original.replace(/(^\s*(?:import|export)\s[^;]*?from\s+')(\.[^']*)(')/gms, (whole, head, specifier, tail) => {
    const target = resolveSpecifier(file, specifier);
    const to = unitOf(relative(SRC, target));
    const module = moduleOf(to);
    if (!module || to === from) return whole;
    const moduleDir = join(SRC, 'modules', module);
    const index = join(moduleDir, 'index');
    if (inCycle(from, to) || !listedFiles(moduleDir).has(target) || target === index) return whole;
    const next = indexSpecifier(file, moduleDir);
    touched.add(next);
    rewritten++;
    return `${head}${next}${tail}`;
  });
  const joined = joinImports(text, touched);
  if (joined !== original) {
    writeFileSync(file, joined);
    changedFiles++;
  }
}
console.log(`module imports: ${rewritten} rewritten to an index in ${changedFiles} files`);
