// The layers of src/ (docs/architecture.md, "Layers"), bottom first, and the module graph they order.
// Used by the ESLint rule `mailroom/module-boundaries` and by scripts/module-graph.mjs (the picture
// and `npm run lint:modules`). This list is the one place the order is written.
//
// A unit is a path under src/: a folder (`modules/emails`) or a file (`app.module.ts`). A file
// belongs to the longest unit that contains it. A unit imports only units of its own layer or of a
// layer below it, and units never form a cycle. When a lower unit needs something of a higher one,
// the higher one fills a registry the lower one owns (as campaigns fills `ActivityRegistry`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export const LAYERS = [
  // Mechanisms with no product rule: database, queues, http, the SystemMailer port, configuration.
  { name: 'platform', units: ['config', 'i18n', 'platform'] },
  // Who acts and for which project: users and sessions, projects and keys, their plan, and the
  // audit log of what they did (low, so every module above may record into it).
  { name: 'accounts', units: ['modules/auth', 'modules/audit', 'modules/projects', 'modules/billing'] },
  // Who mail is for and what they did: events, contacts, topics; the activity feed's registry.
  { name: 'audience', units: ['modules/events', 'modules/contacts', 'modules/topics', 'modules/activity'] },
  // What mail says and who may send it: stored files, templates, sender domains.
  { name: 'content', units: ['modules/uploads', 'modules/domains', 'modules/templates'] },
  // Emails and what comes back of them: the pipeline, feedback and suppressions, SMTP in and out.
  { name: 'sending', units: ['modules/emails', 'modules/deliverability', 'modules/smtp', 'modules/inbound'] },
  // Work that picks recipients and sends over time: filters, segments, campaigns, workflows, webhooks.
  { name: 'orchestration', units: ['modules/filters', 'modules/segments', 'modules/campaigns', 'modules/workflows', 'modules/webhooks'] },
  // Endpoints that only face users, and the assembly of the app (the root module, the runtime that
  // boots it, the process entry). `platform/mail/system-mail.module.ts` binds the platform's
  // SystemMailer port to the emails pipeline, so it stands here, above emails, while the port it
  // binds (`platform/mail/system-mailer.ts`) stays in platform.
  {
    name: 'surfaces',
    units: ['modules/verify', 'modules/ping', 'platform/mail/system-mail.module.ts', 'app.module.ts', 'platform/runtime.ts', 'main.ts'],
  },
];

/**
 * Imports not yet turned around, `'<from unit> -> <to unit>'`: each closes a cycle still to break
 * (a helper to move down, or a registry for the higher unit to fill). The rule lets exactly these
 * through, so the list can only shrink. While a pair is in a cycle, its imports name the listed
 * file itself, never the index, so Node never meets the two modules' index files in a loop.
 */
export const PENDING = [
];

const RANK = new Map(LAYERS.flatMap((layer, rank) => layer.units.map((unit) => [unit, rank])));
const UNITS = [...RANK.keys()].sort((a, b) => b.length - a.length);

export const layerOf = (unit) => LAYERS[RANK.get(unit)]?.name;
export const rankOf = (unit) => RANK.get(unit);

/** The unit of a path relative to src/ (with or without extension), or null outside every unit. */
export function unitOf(relPath) {
  const path = relPath.split(sep).join('/');
  for (const unit of UNITS) {
    const bare = unit.replace(/\.ts$/, '');
    if (path === unit || path === bare || path.startsWith(`${unit}/`)) return unit;
  }
  return null;
}

/** Module name of a unit (`modules/emails` → `emails`), null for units that are not modules. */
export const moduleOf = (unit) => (unit?.startsWith('modules/') ? unit.slice('modules/'.length) : null);

/** Relative specifiers a TypeScript source imports: `import/export … from`, side-effect imports, `import()`, `require()`. */
export function specifiersOf(text) {
  const found = [];
  const patterns = [/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']*)'/gms, /^\s*import\s+'(\.[^']*)'/gm, /\b(?:import|require)\(\s*'(\.[^']*)'\s*\)/g];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The app's sources under a folder: specs are left out (they assemble what they test, and never load in the app). */
export function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) yield path;
  }
}

/** The specifier of a module's folder from a file (`'../emails'`, `'../../emails'`). */
export const indexSpecifier = (fromFile, moduleDir) => {
  const path = relative(dirname(fromFile), moduleDir).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
};

/** Resolves a relative specifier to an extension-less absolute path (a folder means its index). */
export function resolveSpecifier(fromFile, specifier) {
  const target = resolve(dirname(fromFile), specifier);
  try {
    if (statSync(join(target, 'index.ts')).isFile()) return join(target, 'index');
  } catch {
    // not a folder with an index
  }
  return target.replace(/\.(ts|js)$/, '');
}

/** Unit-to-unit edges of src/: `Map<'a -> b', { from, to, files: string[] }>` (files as `file => specifier`). */
export function unitGraph(srcDir) {
  const edges = new Map();
  for (const file of sources(srcDir)) {
    const from = unitOf(relative(srcDir, file));
    if (!from) continue;
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      const to = unitOf(relative(srcDir, resolveSpecifier(file, specifier)));
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, files: [] });
      edges.get(key).files.push(`${relative(srcDir, file)} => ${specifier}`);
    }
  }
  return edges;
}

/** Strongly connected components of more than one unit (Tarjan), each sorted. */
export function cyclesOf(edges) {
  const next = new Map();
  for (const { from, to } of edges.values()) {
    if (!next.has(from)) next.set(from, []);
    next.get(from).push(to);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** Edges that go up the layers and are not PENDING. */
export const upwardEdges = (edges) => [...edges.values()].filter(({ from, to }) => rankOf(to) > rankOf(from) && !PENDING.includes(`${from} -> ${to}`));

/** The graph without the PENDING edges: it must have no cycle. */
export const settledGraph = (edges) => new Map([...edges].filter(([key]) => !PENDING.includes(key)));

/** `unit → its cycle's index` for the units in a cycle of the graph. */
export function cycleIndex(edges) {
  const index = new Map();
  cyclesOf(edges).forEach((cycle, i) => cycle.forEach((unit) => index.set(unit, i)));
  return index;
}
