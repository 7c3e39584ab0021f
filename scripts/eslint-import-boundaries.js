/**
 * ESLint rule `boundaries/imports`: the layers of the code base may only depend downwards.
 *
 * - `src/features/<x>/**` never imports `src/features/<y>/**` (y ≠ x): what two features share
 *   lives in a shared layer (`src/ui`, `src/lib`, `src/api`, `src/market`, `src/risk`).
 * - The shared layers (everything under `src/` but `src/app` and `src/features`) never import a
 *   feature: code flows app → features → shared, never back (bulletproof-react's one-way rule).
 * - `server/modules/**` never imports `server/http/**`: the domain throws error keys and knows
 *   nothing of the transport (`server/modules/common` holds what both need).
 * - `contract/**` imports only `contract/**` and the packages in CONTRACT_PACKAGES: it is loaded
 *   by the server, the page and the worker alike, so it must not pull any of them in.
 *
 * Every relative specifier is resolved against the importing file, so `../../market/x` is judged
 * by where it lands (`src/market` is shared, `src/features/market` is a feature), unlike a
 * pattern on the specifier text. Static imports, re-exports (`export … from`) and `import()` with
 * a literal are checked; type-only imports count too (a type dependency is still a dependency).
 * The repository root is this file's parent directory, so the rule judges the same paths whatever
 * the working directory (the lint test lints fixtures under virtual paths).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The only packages `contract/` may import (schemas and calendar arithmetic). */
export const CONTRACT_PACKAGES = ['zod', 'luxon'];

/** Repo-relative POSIX path of an absolute path, or null when it lies outside the repository. */
function repoPath(abs) {
  const rel = path.relative(ROOT, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

/** `src/features/<name>/…` → name; anything else → null. */
function featureOf(rel) {
  const m = /^src\/features\/([^/]+)\//.exec(rel);
  return m ? m[1] : null;
}

/** Package name of a bare specifier: `zod/v4` → zod, `@scope/pkg/x` → @scope/pkg. */
function packageOf(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The message id a (from, spec) pair breaks, or null when allowed. `from` is the importing
 * file's repo-relative path; `spec` the import specifier as written.
 */
function violation(from, spec) {
  const relative = spec.startsWith('./') || spec.startsWith('../');
  if (from.startsWith('contract/')) {
    if (!relative) return CONTRACT_PACKAGES.includes(packageOf(spec)) ? null : 'contractPackage';
  }
  if (!relative) return null;
  const to = repoPath(path.resolve(ROOT, path.dirname(from), spec));
  if (from.startsWith('contract/'))
    return to !== null && to.startsWith('contract/') ? null : 'contractOutside';
  if (to === null) return null;
  if (from.startsWith('server/modules/') && to.startsWith('server/http/')) return 'modulesToHttp';
  const fromFeature = featureOf(from);
  const toFeature = featureOf(to);
  if (toFeature === null) return null;
  if (fromFeature !== null) return fromFeature === toFeature ? null : 'featureToFeature';
  if (from.startsWith('src/') && !from.startsWith('src/app/')) return 'sharedToFeature';
  return null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Layer boundaries: features, shared client layers, server modules, contract.' },
    schema: [],
    messages: {
      featureToFeature:
        'A feature does not import another feature ({{spec}}): move what both need to a shared layer (src/ui, src/lib, src/market, src/risk).',
      sharedToFeature: 'A shared layer does not import a feature ({{spec}}): only src/app composes features.',
      modulesToHttp:
        'server/modules does not import server/http ({{spec}}): throw an error key (server/modules/common) and let the HTTP layer map it.',
      contractOutside: 'contract/ imports only contract/ ({{spec}}).',
      contractPackage: `contract/ imports only ${CONTRACT_PACKAGES.join(', ')} among packages ({{spec}}).`,
    },
  },
  create(context) {
    const from = repoPath(path.resolve(context.cwd, context.filename));
    if (from === null) return {};
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const messageId = violation(from, source.value);
      if (messageId) context.report({ node: source, messageId, data: { spec: source.value } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

/** The plugin object for eslint.config.js (`plugins: { boundaries }`). */
export default { rules: { imports: rule } };
