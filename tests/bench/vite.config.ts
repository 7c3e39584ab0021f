/**
 * Build of the stream benchmark's pages: the root vite.config.ts as it is (React, the app's
 * entries index.html and admin.html, chunking), plus tests/bench/pages/stream.html (our pipeline)
 * and naive.html (the baseline). In this build only:
 * - the market worker imports tests/bench/pages/worker-probe.ts first (message counter, worker
 *   CPU throttling, quote subscriptions; see that file), in every page that starts it, the real
 *   app's index.html included;
 * - the real app's entry (src/app/main.tsx) wraps its store in
 *   tests/bench/pages/app-probe.ts's `instrumentAppStore` (dispatch counts, feed-to-paint,
 *   readiness), so the driver measures the real `#/market/market` route. The build fails if the
 *   entry no longer has exactly one `createAppStore()` call, rather than measure an
 *   uninstrumented app.
 * Output: BENCH_OUT_DIR (the driver passes a temporary directory that the server serves as
 * CLIENT_DIR, so the pages, /api and /ws share one origin).
 * BENCH_BUILD_PAGES (comma list of `stream`, `naive`; both when unset) names the bench pages the
 * run loads; the app's index.html is always built (the root config's chunking is laid out around
 * its entry), the console's admin.html never.
 */
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig, type Plugin } from 'vite';
import appConfig from '../../vite.config';

const root = fileURLToPath(new URL('../..', import.meta.url));
const workerEntry = resolve(root, 'workers/market.worker.ts');
const workerProbe = resolve(root, 'tests/bench/pages/worker-probe.ts');
const appEntry = resolve(root, 'src/app/main.tsx');
const appProbe = resolve(root, 'tests/bench/pages/app-probe.ts');
const STORE_CALL = /\bcreateAppStore\(\)/g;

/** Prepends the probe's import to the worker entry (module order: the probe patches first). */
function workerProbePlugin(): Plugin {
  return {
    name: 'bench-worker-probe',
    enforce: 'pre',
    transform(code, id) {
      if (id.split('?')[0] !== workerEntry) return null;
      return { code: `import ${JSON.stringify(workerProbe)};\n${code}`, map: null };
    },
  };
}

/** Wraps the app entry's store in the bench probe (see the module docstring). */
function appProbePlugin(): Plugin {
  return {
    name: 'bench-app-probe',
    enforce: 'pre',
    transform(code, id) {
      if (id.split('?')[0] !== appEntry) return null;
      const calls = code.match(STORE_CALL)?.length ?? 0;
      if (calls !== 1)
        this.error(`bench-app-probe: expected one createAppStore() call in ${appEntry}, found ${calls}`);
      return {
        code:
          `import { instrumentAppStore as __benchInstrumentAppStore } from ${JSON.stringify(appProbe)};\n` +
          code.replace(STORE_CALL, '__benchInstrumentAppStore(createAppStore())'),
        map: null,
      };
    },
  };
}

const PAGE_INPUTS: Record<string, string> = {
  stream: resolve(root, 'tests/bench/pages/stream.html'),
  naive: resolve(root, 'tests/bench/pages/naive.html'),
};
const pages = (process.env.BENCH_BUILD_PAGES ?? Object.keys(PAGE_INPUTS).join(','))
  .split(',')
  .filter((p) => p !== '');
for (const p of pages) if (!PAGE_INPUTS[p]) throw new Error(`BENCH_BUILD_PAGES: unknown page ${p}`);

const config = mergeConfig(
  appConfig,
  defineConfig({
    root,
    logLevel: 'warn',
    plugins: [appProbePlugin()],
    worker: { plugins: () => [workerProbePlugin()] },
    build: {
      outDir: process.env.BENCH_OUT_DIR ?? resolve(tmpdir(), 'tw-bench-client'),
      manifest: false,
      // A profiling run (BENCH_PROFILE) keeps names readable in the CPU profile.
      minify: process.env.BENCH_MINIFY !== '0',
    },
  }),
);
// Replaces the app's own inputs (mergeConfig would add to them): the console is never loaded here.
config.build.rollupOptions.input = {
  index: resolve(root, 'index.html'),
  ...Object.fromEntries(pages.map((p) => [p, PAGE_INPUTS[p]!])),
};

export default config;
