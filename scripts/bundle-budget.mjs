#!/usr/bin/env node
/* global process, console */
/**
 * Bundle budget of the first screen, run after `vite build` (npm run test:e2e).
 *
 * The first screen is what a phone downloads before the landing route (`/` redirects to
 * /login/start, src/app/router.tsx) is live: the entry chunk and its static imports, the app
 * (src/app/main.tsx, which the entry imports once index.html's static shell has painted), the
 * landing route's lazy chunk, each with its static imports, and the default language's strings
 * (fetched before the first render, src/app/i18n.ts). Each file is gzipped (level 6, what a
 * server's on-the-fly gzip uses) and the sum must stay within BUDGET_KIB. klinecharts must not
 * be in that graph, and must be loaded by the detail screen (so the check is not vacuous).
 *
 * The first paint (index.html's static shell, vite.config.ts `staticShell`) needs none of that:
 * only the entry chunk with its static imports and the first-paint script, which must stay within
 * FIRST_PAINT_BUDGET_KIB, so the app's libraries cannot creep back in front of the first paint.
 *
 * Reads dist/.vite/manifest.json (build.manifest in vite.config.ts). Exit 1 over budget.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// What keeps the first screen near its budget: docs/adr/0026-chunks-and-first-screen-budget.md.
const BUDGET_KIB = 153;
// 2.1 KiB before the market screen's first page was asked for by the entry (src/api/early.ts,
// src/features/market/ranking-args.ts: 1.7 KiB), so its rows paint before the app has loaded.
const FIRST_PAINT_BUDGET_KIB = 4;
/** The static shell's script (an asset, not a chunk: vite.config.ts `staticShell`). */
const FIRST_PAINT_SCRIPT = /^assets\/first-paint-[\w-]+\.js$/;
const DIST = path.resolve(process.argv[2] ?? 'dist');
/** The landing route's module (`/` → /login/start) and what it needs before the first paint. */
const FIRST_ROUTE = 'src/features/auth/routes/start.tsx';
/** The app, imported dynamically by the entry (src/app/entry.ts). */
const APP = 'src/app/main.tsx';
const DEFAULT_LANG_CHUNKS = ['locales/tw.json', 'node_modules/antd-mobile/es/locales/zh-TW.js'];
const DETAIL_ROUTE = 'src/features/market/routes/market-detail.tsx';
/** For information only: other screens a user often lands on. */
const OTHER_ROUTES = {
  '/market/market': 'src/features/market/routes/market.tsx',
  '/home/index': 'src/features/home/routes/home.tsx',
  '/market/marketDetail': DETAIL_ROUTE,
};
const CHART_CHUNK_NAME = 'klinecharts';

/** @type {Record<string, {file: string, name?: string, src?: string, isEntry?: boolean, imports?: string[]}>} */
const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8'));

function need(key) {
  if (!manifest[key]) {
    console.error(`bundle-budget: ${key} is not in the manifest (renamed? update scripts/bundle-budget.mjs)`);
    process.exit(1);
  }
  return key;
}

/** Keys of `roots` and everything they import statically. */
function staticGraph(roots) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[need(key)].imports ?? []) visit(dep);
  };
  for (const r of roots) visit(r);
  return seen;
}

const gz = new Map();
function gzipBytes(key) {
  const file = manifest[key].file;
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(DIST, file)), { level: 6 }).length);
  return gz.get(file);
}

const sumKiB = (keys) => [...keys].reduce((n, k) => n + gzipBytes(k), 0) / 1024;
const hasChart = (keys) => [...keys].some((k) => manifest[k].name === CHART_CHUNK_NAME);

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry && manifest[k].src === 'index.html');
if (!entry) {
  console.error('bundle-budget: no index.html entry in the manifest');
  process.exit(1);
}
const first = staticGraph([entry, need(APP), need(FIRST_ROUTE), ...DEFAULT_LANG_CHUNKS.map(need)]);
const firstKiB = sumKiB(first);

console.log(`first screen (index.html → ${FIRST_ROUTE}, tw strings), gzip:`);
for (const k of [...first].sort((a, b) => gzipBytes(b) - gzipBytes(a)))
  console.log(`  ${(gzipBytes(k) / 1024).toFixed(1).padStart(6)} KiB  ${manifest[k].file}`);
console.log(`  ${firstKiB.toFixed(1).padStart(6)} KiB  total (budget ${BUDGET_KIB} KiB)`);

const shell = staticGraph([entry, need(APP), ...DEFAULT_LANG_CHUNKS]);
for (const [route, src] of Object.entries(OTHER_ROUTES)) {
  const g = staticGraph([...shell, need(src)]);
  console.log(`  for reference, landing on ${route}: ${sumKiB(g).toFixed(1)} KiB`);
}

const firstPaintFiles = [
  ...[...staticGraph([entry])].map((k) => manifest[k].file),
  ...readdirSync(path.join(DIST, 'assets'))
    .map((f) => `assets/${f}`)
    .filter((f) => FIRST_PAINT_SCRIPT.test(f)),
];
const firstPaintKiB =
  firstPaintFiles.reduce((n, f) => n + gzipSync(readFileSync(path.join(DIST, f)), { level: 6 }).length, 0) /
  1024;
console.log(
  `first paint (index.html's static shell: ${firstPaintFiles.join(', ')}): ${firstPaintKiB.toFixed(1)} KiB ` +
    `(budget ${FIRST_PAINT_BUDGET_KIB} KiB)`,
);

let failed = false;
if (!firstPaintFiles.some((f) => FIRST_PAINT_SCRIPT.test(f))) {
  console.error('bundle-budget: FAIL, no first-paint script in dist/assets (static shell gone?)');
  failed = true;
}
if (firstPaintKiB > FIRST_PAINT_BUDGET_KIB) {
  console.error(
    `bundle-budget: FAIL, first paint ${firstPaintKiB.toFixed(1)} KiB > ${FIRST_PAINT_BUDGET_KIB} KiB gzip`,
  );
  failed = true;
}
if (firstKiB > BUDGET_KIB) {
  console.error(`bundle-budget: FAIL, first screen ${firstKiB.toFixed(1)} KiB > ${BUDGET_KIB} KiB gzip`);
  failed = true;
}
if (hasChart(first)) {
  console.error('bundle-budget: FAIL, klinecharts is in the first screen');
  failed = true;
}
// The detail screen loads the chart's chunk (src/features/market/routes/market-detail.tsx imports
// it on demand, so the screen draws without waiting for it).
const detailLoads = new Set(
  [...staticGraph([need(DETAIL_ROUTE)])].flatMap((k) => [k, ...(manifest[k].dynamicImports ?? [])]),
);
if (!hasChart(staticGraph(detailLoads))) {
  console.error(
    `bundle-budget: FAIL, no "${CHART_CHUNK_NAME}" chunk under the detail screen (chunk name changed?)`,
  );
  failed = true;
}
if (failed) process.exit(1);
console.log('bundle-budget: ok');
