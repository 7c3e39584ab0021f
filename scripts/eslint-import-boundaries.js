/**
 * ESLint rule `boundaries/imports`: every layer of the code base depends downwards only
 * (docs/adr/0052-import-boundaries.md has the layer order and why).
 *
 * Client (`src/`):
 * - `src/features/<x>/**` imports another feature `<y>` only through its public entry,
 *   `src/features/<y>/index.ts` (the folder itself or its index): what `<y>` exports there is what
 *   other features may use; its other files are its own. Generic code two features share lives in
 *   a shared layer (`src/ui`, `src/lib`, `src/api`, `src/live`); a screen made of two features is
 *   composed in `src/app`.
 * - A public entry only re-exports (`export … from`): the build treats it as free of side effects
 *   (vite.config.ts FEATURE_ENTRY), so code of its own, or a bare `import './x.css'`, would be lost.
 * - The shared layers (everything under `src/` but `src/app` and `src/features`) never import a
 *   feature, not even its public entry: code flows app → features → shared, never back
 *   (bulletproof-react's one-way rule).
 * - `src/` never imports `server/`, and of `workers/` only WORKER_SURFACE (the page ↔ worker
 *   interface and the pure helpers both sides run); the worker itself is loaded by URL
 *   (`new Worker(new URL('…/workers/market.worker.ts', import.meta.url))`), which is checked too:
 *   such a URL may name only WORKER_ENTRY.
 *
 * Worker (`workers/`): imports only `workers/**`, `contract/**` and WORKER_PACKAGES (it runs in
 * the browser, apart from the page, so it must not pull the page or the server in).
 *
 * Contract (`contract/`): imports only `contract/**` and CONTRACT_PACKAGES: it is loaded by the
 * server, the page and the worker alike.
 *
 * Server (`server/`):
 * - never imports `src/` or `workers/`.
 * - layers one-way, SERVER_LAYERS from top to bottom: main → app → app-modules → services →
 *   realtime → http → modules → market → db. A file imports its own layer or any layer below it (skipping is allowed).
 *   `server/config.ts` (settings from the environment) is outside the order: any server file may
 *   import it, and it imports only the settings files of the units (CONFIG_SOURCES).
 * - `fastify`, `@fastify/*` and `fastify-*` packages only in FASTIFY_FILES (the transports and
 *   the composition root): the domain throws error keys and returns values.
 * - `server/modules/common` imports no other module folder: the shared layer stays generic.
 * - No folder cycles among `server/modules/*`: an import of folder B from folder A is refused when
 *   B already reaches A through the imports on disk (read once per process from
 *   server/modules/**), so both ends of a cycle are reported. The file-level edges listed in
 *   scripts/lint-allow/module-cycles.json are today's cycles, left out of the graph until fixed.
 *
 * Every relative specifier is resolved against the importing file, so `../../market/x` is judged
 * by where it lands (`src/live` is shared, `src/features/live` would be a feature), unlike a
 * pattern on the specifier text. Static imports, re-exports (`export … from`) and `import()` with
 * a literal are checked; type-only imports count too (a type dependency is still a dependency).
 * The repository root is this file's parent directory, so the rule judges the same paths whatever
 * the working directory (the lint test lints fixtures under virtual paths).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The only packages `contract/` may import (schemas and calendar arithmetic). */
export const CONTRACT_PACKAGES = ['zod', 'luxon'];

/** The only packages `workers/` may import (the Comlink bridge and the streams). */
export const WORKER_PACKAGES = ['comlink', 'rxjs'];

/** The worker modules the page may import (extensionless): its interface and shared pure helpers. */
export const WORKER_SURFACE = [
  'workers/protocol',
  'workers/transfer',
  'workers/conflate',
  'workers/backoff',
  'workers/connection-machine',
];

/** The worker entry the page loads by URL. */
export const WORKER_ENTRY = 'workers/market.worker.ts';

/** The server's layers, top to bottom: a file (`x`) or a folder (`x/`). */
export const SERVER_LAYERS = [
  'server/main',
  'server/app',
  'server/app-modules',
  'server/services',
  'server/realtime/',
  'server/http/',
  'server/modules/',
  'server/market/',
  'server/db/',
];

/** Settings files `server/config.ts` may import besides contract/ and packages (extensionless). */
export const CONFIG_SOURCES = [/^server\/modules\/[^/]+\/config$/, /^server\/realtime\/limits$/];

/** Where the Fastify packages may be imported: the transports and the composition root. */
export const FASTIFY_FILES = [
  /^server\/(main|app|app-modules)\.ts$/,
  /^server\/http\//,
  /^server\/realtime\//,
];

/** Repo-relative POSIX path of an absolute path, or null when it lies outside the repository. */
function repoPath(abs) {
  const rel = path.relative(ROOT, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

/** A repo path without its source extension: `workers/protocol.ts` → `workers/protocol`. */
const bare = (rel) => rel.replace(/\.(tsx?|jsx?|mjs)$/, '');

/** `src/features/<name>` or `src/features/<name>/…` → name; anything else → null. */
function featureOf(rel) {
  const m = /^src\/features\/([^/]+)(?:\/|$)/.exec(rel);
  return m ? m[1] : null;
}

/** Whether a resolved path is a feature's public entry: `src/features/<name>` or its `index.ts(x)`. */
const isPublicEntry = (rel) => /^src\/features\/[^/]+(?:\/index(?:\.tsx?)?)?$/.test(rel);

/** `server/modules/<name>/…` → name; anything else → null. */
function moduleOf(rel) {
  const m = /^server\/modules\/([^/]+)\//.exec(rel);
  return m ? m[1] : null;
}

/** Index of a server path's layer in SERVER_LAYERS, or -1 (config.ts, unknown root files). */
function layerOf(rel) {
  const b = bare(rel);
  return SERVER_LAYERS.findIndex((l) => (l.endsWith('/') ? b.startsWith(l) : b === l));
}

/** Package name of a bare specifier: `zod/v4` → zod, `@scope/pkg/x` → @scope/pkg. */
function packageOf(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const isFastify = (pkg) => pkg === 'fastify' || pkg.startsWith('@fastify/') || pkg.startsWith('fastify-');

const IMPORT_RE =
  /(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Today's module cycles, as `file → folder` edges (scripts/lint-allow/module-cycles.json). */
function loadCycleAllowList() {
  const raw = JSON.parse(readFileSync(path.join(ROOT, 'scripts/lint-allow/module-cycles.json'), 'utf8'));
  return new Set(raw.edges.map((e) => `${e.file}>${e.to}`));
}

let moduleGraph = null;

/**
 * Folder graph of server/modules/* from the files on disk: folder → folders it imports, without
 * the allow-listed edges. Built once per process (a lint run reads the tree once).
 */
function modulesGraph() {
  if (moduleGraph) return moduleGraph;
  const allowed = loadCycleAllowList();
  const graph = new Map();
  const dir = path.join(ROOT, 'server/modules');
  for (const entry of readdirSync(dir, { recursive: true })) {
    const file = `server/modules/${String(entry).split(path.sep).join('/')}`;
    if (!/\.tsx?$/.test(file)) continue;
    const from = moduleOf(file);
    if (from === null) continue;
    const code = readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of code.matchAll(IMPORT_RE)) {
      const to = moduleOf(repoPath(path.resolve(ROOT, path.dirname(file), m[1] ?? m[2])) ?? '');
      if (to === null || to === from || allowed.has(`${file}>${to}`)) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from).add(to);
    }
  }
  moduleGraph = { graph, allowed };
  return moduleGraph;
}

/** Whether module folder `start` reaches folder `goal` in the graph on disk. */
function reaches(start, goal) {
  const { graph } = modulesGraph();
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    if (at === goal) return true;
    for (const next of graph.get(at) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

/** The message id a package import breaks, or null. */
function packageViolation(from, pkg) {
  if (from.startsWith('contract/')) return CONTRACT_PACKAGES.includes(pkg) ? null : 'contractPackage';
  if (from.startsWith('workers/')) return WORKER_PACKAGES.includes(pkg) ? null : 'workerPackage';
  if (from.startsWith('server/') && isFastify(pkg) && !FASTIFY_FILES.some((re) => re.test(from)))
    return 'fastifyOutsideTransport';
  return null;
}

/** The message id a server → server import breaks, or null. */
function serverViolation(from, to) {
  if (bare(to) === 'server/config') return null;
  if (bare(from) === 'server/config')
    return CONFIG_SOURCES.some((re) => re.test(bare(to))) ? null : 'configImport';
  const fromLayer = layerOf(from);
  const toLayer = layerOf(to);
  if (fromLayer >= 0 && toLayer >= 0 && toLayer < fromLayer) return 'serverLayer';
  const fromModule = moduleOf(from);
  const toModule = moduleOf(to);
  if (fromModule === null || toModule === null || fromModule === toModule) return null;
  if (fromModule === 'common') return 'commonToModule';
  if (modulesGraph().allowed.has(`${from}>${toModule}`)) return null;
  return reaches(toModule, fromModule) ? 'moduleCycle' : null;
}

/** The message id a client (src/) → repository import breaks, or null. */
function clientViolation(from, to) {
  if (to.startsWith('server/')) return 'clientToServer';
  if (to.startsWith('workers/') && !WORKER_SURFACE.includes(bare(to))) return 'clientToWorker';
  const fromFeature = featureOf(from);
  const toFeature = featureOf(to);
  if (toFeature === null || from.startsWith('src/app/')) return null;
  if (fromFeature === null) return 'sharedToFeature';
  if (fromFeature === toFeature || isPublicEntry(to)) return null;
  return 'featureToFeature';
}

/**
 * The message id a (from, spec) pair breaks, or null when allowed. `from` is the importing
 * file's repo-relative path; `spec` the import specifier as written.
 */
function violation(from, spec) {
  const relative = spec.startsWith('./') || spec.startsWith('../');
  if (!relative) return packageViolation(from, packageOf(spec));
  const to = repoPath(path.resolve(ROOT, path.dirname(from), spec));
  if (from.startsWith('contract/'))
    return to !== null && to.startsWith('contract/') ? null : 'contractOutside';
  if (from.startsWith('workers/'))
    return to !== null && (to.startsWith('workers/') || to.startsWith('contract/')) ? null : 'workerOutside';
  if (to === null) return null;
  if (from.startsWith('server/')) {
    if (to.startsWith('src/') || to.startsWith('workers/')) return 'serverToClient';
    return to.startsWith('server/') ? serverViolation(from, to) : null;
  }
  if (from.startsWith('src/')) return clientViolation(from, to);
  return null;
}

/** For `new URL(spec, import.meta.url)` in src/: only the worker entry, nothing else of workers/ or server/. */
function urlViolation(from, spec) {
  if (!from.startsWith('src/') || !(spec.startsWith('./') || spec.startsWith('../'))) return null;
  const to = repoPath(path.resolve(ROOT, path.dirname(from), spec));
  if (to === null) return null;
  if (to.startsWith('server/')) return 'clientToServer';
  if (to.startsWith('workers/') && to !== WORKER_ENTRY) return 'clientToWorker';
  return null;
}

const isImportMetaUrl = (node) =>
  node?.type === 'MemberExpression' &&
  node.object.type === 'MetaProperty' &&
  node.property.type === 'Identifier' &&
  node.property.name === 'url';

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Layer boundaries: client, worker, contract, server layers and module folders.' },
    schema: [],
    messages: {
      featureToFeature:
        'A feature imports another feature only through its public entry, src/features/<area>/index.ts ({{spec}}): export what is needed there, move generic code to a shared layer (src/ui, src/lib, src/api, src/live), or compose in src/app.',
      publicEntryCode:
        "A feature's public entry only re-exports (export … from) ({{spec}}): the build treats it as free of side effects; put the code in a module of the feature and re-export it.",
      sharedToFeature:
        'A shared layer (src/ui, src/lib, src/api, src/live) does not import a feature, not even its public entry ({{spec}}): only src/app and features use features.',
      clientToServer:
        'src/ never imports server/ ({{spec}}): the page talks to the server over HTTP and the socket.',
      clientToWorker: `src/ imports of workers/ only ${WORKER_SURFACE.join(', ')} and loads ${WORKER_ENTRY} by URL ({{spec}}).`,
      workerOutside: 'workers/ imports only workers/ and contract/ ({{spec}}).',
      workerPackage: `workers/ imports only ${WORKER_PACKAGES.join(', ')} among packages ({{spec}}).`,
      serverToClient: 'server/ never imports src/ or workers/ ({{spec}}).',
      serverLayer: `Server layers depend downwards only (${SERVER_LAYERS.join(' → ')}): {{spec}} is above this file.`,
      configImport:
        'server/config.ts imports only the units’ settings files (modules/*/config.ts, realtime/limits.ts) ({{spec}}).',
      fastifyOutsideTransport:
        'Fastify belongs to the transports (server/http, server/realtime) and server/app.ts ({{spec}}): return values and throw error keys here.',
      commonToModule:
        'server/modules/common imports no other module folder ({{spec}}): the shared layer stays generic.',
      moduleCycle:
        'Folder cycle: {{spec}} already imports this folder (directly or through others); move the shared piece down or invert the dependency.',
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
    const checkEntry = (program) => {
      for (const node of program.body) {
        const reExport =
          (node.type === 'ExportNamedDeclaration' && node.source) || node.type === 'ExportAllDeclaration';
        if (!reExport) context.report({ node, messageId: 'publicEntryCode', data: { spec: node.type } });
      }
    };
    return {
      ...(isPublicEntry(from) ? { Program: checkEntry } : {}),
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      NewExpression: (node) => {
        const [spec, base] = node.arguments;
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'URL' || !isImportMetaUrl(base)) return;
        if (spec?.type !== 'Literal' || typeof spec.value !== 'string') return;
        const messageId = urlViolation(from, spec.value);
        if (messageId) context.report({ node: spec, messageId, data: { spec: spec.value } });
      },
    };
  },
};

/** The plugin object for eslint.config.js (`plugins: { boundaries }`). */
export default { rules: { imports: rule } };
