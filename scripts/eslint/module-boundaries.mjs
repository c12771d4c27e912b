// ESLint rule `mailroom/module-boundaries`: a module is imported only through what its `index.ts`
// declares public (docs/architecture.md, "Module boundaries").
//
// In `src/modules/<a>/…`, an import of `src/modules/<b>/<file>` (b ≠ a) is allowed when <file> is
// `<b>/index.ts` itself or a file that index re-exports (`export … from './<file>'`). Importing the
// declared file directly rather than the index is allowed on purpose: Node then loads only that
// file, so two modules that use each other (contacts and events) cannot meet in a cycle of index
// files, which would leave a class undefined when Nest reads its constructor's parameter types.
// In `src/platform/…`, importing `src/modules/…` is allowed only from `platform/mail/` (the one
// dependency inversion, see docs/architecture.md).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const publicFilesCache = new Map();

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

function stripExtension(path) {
  return path.replace(/\.(ts|js)$/, '');
}

/** Resolves a relative specifier to an extension-less absolute path (a folder means its index). */
function resolveSpecifier(fromFile, specifier) {
  const target = resolve(dirname(fromFile), specifier);
  if (existsSync(join(target, 'index.ts'))) return join(target, 'index');
  return stripExtension(target);
}

/** @type {import('eslint').Rule.RuleModule} */
export const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "import another module only through the files its index.ts declares public" },
    schema: [{ type: 'object', properties: { srcDir: { type: 'string' } }, additionalProperties: false }],
    messages: {
      internal: "'{{specifier}}' reaches into module '{{module}}': import what src/modules/{{module}}/index.ts exports (or export it there if it is meant for other modules).",
      platform: "'{{specifier}}': platform/ must not depend on modules/ (only platform/mail binds a module, see docs/architecture.md).",
    },
  },
  create(context) {
    const srcDir = resolve(context.options[0]?.srcDir ?? 'src');
    const modulesDir = join(srcDir, 'modules');
    const filename = context.filename;
    const fromRel = relative(srcDir, filename).split(sep);
    if (fromRel[0] === '..') return {};
    const fromModule = fromRel[0] === 'modules' ? fromRel[1] : null;
    const fromPlatformMail = fromRel[0] === 'platform' && fromRel[1] === 'mail';
    const fromPlatform = fromRel[0] === 'platform';

    function check(node) {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolveSpecifier(filename, specifier);
      const rel = relative(modulesDir, target).split(sep);
      if (rel[0] === '..' || rel.length < 2) return;
      const toModule = rel[0];
      if (toModule === fromModule) return;
      if (fromPlatform && !fromPlatformMail) {
        context.report({ node: node.source, messageId: 'platform', data: { specifier } });
        return;
      }
      const publicFiles = publicFilesOf(join(modulesDir, toModule));
      if (publicFiles?.has(target)) return;
      context.report({ node: node.source, messageId: 'internal', data: { specifier, module: toModule } });
    }

    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { 'module-boundaries': moduleBoundaries } };
