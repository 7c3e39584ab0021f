/**
 * Client build: React, two HTML entries (the member app and the operator console), ES-module
 * worker, and a dev proxy to the API server for /api and the /ws socket. Output in dist/, which
 * the server serves on the same origin as /api and /ws.
 *
 * Chunking: the libraries every screen needs (React, the router, Redux Toolkit, i18next) are one
 * `vendor` chunk (one request, better compression, cached across releases of the app code), and
 * klinecharts is its own `klinecharts` chunk, loaded with the detail screen only. Past the landing
 * screen, the UI kit is one `ui` chunk and what the market screen adds from our shared layers one
 * `shared` chunk (`UI_KIT`, `sharedLayerChunk`): a screen loads ~15 files instead of ~110. The
 * app's own code is one `app` chunk (`appChunk`): each script request a task starts lengthens
 * that task. The
 * manifest (dist/.vite/manifest.json) lets scripts/bundle-budget.mjs measure the first screen.
 *
 * First screen: index.html carries the landing screen prerendered (`staticShell`) and links the
 * stylesheets it needs (`firstScreenStyles`), so it paints before any module has loaded; the
 * entry (src/app/entry.ts) then loads the app.
 *
 * Compression: after the bundle is written, `precompress` puts a brotli `.br` and a gzip `.gz`
 * next to every text file of dist/ (scripts/precompress.mjs); the server sends those variants
 * (server/http/static-client.ts), so nothing is compressed per request.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import {
  createServer,
  defineConfig,
  minifySync,
  transformWithOxc,
  type HtmlTagDescriptor,
  type Plugin,
} from 'vite';
import { precompressDir } from './scripts/precompress.mjs';
import type { renderShell } from './src/app/static-shell';

const root = fileURLToPath(new URL('.', import.meta.url));
const API_TARGET = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

const VENDOR =
  /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@reduxjs[\\/]toolkit|immer|redux|redux-thunk|reselect|react-redux|use-sync-external-store|i18next|react-i18next)[\\/]/;

/**
 * The UI kit (antd-mobile with the packages it imports) and the libraries the market screens
 * share, in one `ui` chunk: past the landing screen, each screen otherwise loaded ~110 files of
 * 1–2 KB (every antd-mobile component and app module its own chunk, all preloaded behind the
 * route's chunk). On a phone each costs a round trip (six at a time per origin over HTTP/1.1) and
 * a DOM insertion of its preload link on the main thread; one larger cached chunk costs neither.
 * Not antd-mobile's global styles (the entry's, src/app/entry.ts) nor its locales (one chunk per
 * language, src/app/i18n.ts).
 */
const UI_KIT =
  /node_modules[\\/](antd-mobile|antd-mobile-icons|@rc-component|rc-field-form|rc-util|async-validator|@use-gesture|@react-spring|@floating-ui|ahooks|lodash|tslib|@babel[\\/]runtime|resize-observer-polyfill|classnames|runes2|deepmerge|react-is|js-cookie|intersection-observer|dayjs|react-virtuoso|rxjs|comlink)[\\/]/;
const NOT_UI_KIT = /antd-mobile[\\/]es[\\/](global|locales)[\\/]/;
/**
 * The kit's components the landing screen shows (src/app/providers.tsx, src/features/auth/routes/
 * start.tsx) with what they import: `ui-base`, so the landing screen does not load `ui`.
 */
const UI_KIT_LANDING =
  /node_modules[\\/]antd-mobile[\\/]es[\\/](components[\\/](config-provider|button|space|dot-loading)[\\/]|utils[\\/]merge-locale)/;
/**
 * The kit's React 19 render hook with what it imports (`ui-render`), set by src/ui/antd-render.ts
 * right after the first render: in `ui`, it made the landing screen load the whole kit.
 */
const UI_KIT_RENDER = /node_modules[\\/]antd-mobile[\\/]es[\\/]utils[\\/]unstable-render/;
/**
 * antd-mobile's index (imported for its side effect, `import './global'`, by every importer of the
 * kit) and its global module: in neither kit chunk, so importing a component does not load `ui`.
 */
const UI_KIT_GLOBAL = /node_modules[\\/]antd-mobile[\\/]es[\\/](index\.js|global[\\/]|utils[\\/]can-use-dom)/;
/** The client's shared layers (src/ui, src/lib, src/live, src/api; README "Architecture"). */
const SHARED_LAYER = /[\\/]src[\\/](ui|lib|live|api)[\\/]/;

/**
 * A feature's public entry (src/features/<area>/index.ts, ADR 0055) only re-exports: marked free
 * of side effects, so a screen that uses one of its exports does not also load the modules behind
 * the others, nor the style sheets they import (the order ticket uses the risk feature's live
 * figures, not its banner and the banner's CSS). Lint `boundaries/imports` holds an entry to
 * re-exports only.
 */
const FEATURE_ENTRY = /[\\/]src[\\/]features[\\/][^\\/]+[\\/]index\.tsx?$/;

/** The part of Rolldown's chunking context used here (its module graph). */
type Graph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };
/**
 * `shared` for a module of the shared layers that the market screen reaches and the landing
 * screen does not: one chunk for what the market screen adds (like `ui`). Null otherwise
 * (Rolldown's own splitting), so a screen's rarer parts (the order ticket, and the contract's
 * schemas it validates with) load with the screens that show them.
 */
function sharedLayerChunk(id: string, ctx: Graph): string | null {
  if (!SHARED_LAYER.test(id)) return null;
  reach ??= {
    // The landing screen's app and route, and the shell's filler (which runs before the app loads).
    landing: staticReach(ctx, [...FIRST_SCREEN.slice(0, 2), 'src/app/shell-fill.ts']),
    market: staticReach(ctx, SHELL_SCREENS.slice(0, 1)),
  };
  return reach.market.has(id) && !reach.landing.has(id) ? 'shared' : null;
}

let reach: { landing: Set<string>; market: Set<string> } | undefined;

/**
 * `app` for one of our modules (src/, contract/) that the app (src/app/main.tsx) imports
 * statically (not main.tsx itself), unless the entry's shell path (src/app/entry.ts,
 * ./shell-fill.ts) imports it too: the app's own code in one chunk. The operator console
 * (src/admin/main.tsx), built on the same providers and store, loads it as well. Left to
 * Rolldown, it was ~10 chunks of 0.1–20 KB (each shared with some screen), and the entry's
 * `import('./main')` asked for each in one task; under Lighthouse's instrumentation each request
 * a script starts costs several ms of that task, so the task was the longest of the first load.
 * Null otherwise.
 */
function appChunk(id: string, ctx: Graph): string | null {
  if (/node_modules/.test(id) || !/[\\/](src|contract)[\\/]/.test(id)) return null;
  appReach ??= {
    app: staticReach(ctx, ['src/app/main.tsx']),
    not: staticReach(ctx, ['src/app/entry.ts', 'src/app/shell-fill.ts'], 5),
  };
  // main.tsx stays its chunk's facade (the entry's import, firstScreenStyles, bundle-budget).
  if (id.replaceAll('\\', '/').endsWith('src/app/main.tsx')) return null;
  return appReach.app.has(id) && !appReach.not.has(id) ? 'app' : null;
}
let appReach: { app: Set<string>; not: Set<string> } | undefined;

/** Our modules (not node_modules) that `from` (repository paths) reach by static imports, in one build's graph. */
function staticReach(ctx: Graph, from: readonly string[], atLeast = 10): Set<string> {
  const seen = new Set<string>();
  const stack = from.map((f) => resolve(root, f));
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id) || /node_modules/.test(id)) continue;
    seen.add(id);
    stack.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  if (seen.size < atLeast)
    throw new Error(`sharedLayerChunk: ${from.join(', ')} reach only ${seen.size} modules`);
  return seen;
}

/**
 * Modules the landing screen's first render waits for besides the entry: the app (./main, which
 * the entry imports), the landing route (`/` redirects to /login/start, src/app/router.tsx) and
 * the default language's two string chunks (src/app/i18n.ts). The same list as
 * scripts/bundle-budget.mjs's first screen.
 */
const FIRST_SCREEN = [
  'src/app/main.tsx',
  'src/features/auth/routes/start.tsx',
  'locales/tw.json',
  'node_modules/antd-mobile/es/locales/zh-TW.js',
];

/**
 * Screens index.html carries prerendered (`staticShell`), by the name src/app/first-paint.ts
 * gives them: the landing screen, the market screen's frame (its rows come with the data), the
 * stock detail's frame (its figures come with the data: src/app/shell-fill.ts) and the home
 * screen's frame (its index card likewise).
 */
const SHELL_ROUTES = {
  start: '/login/start',
  market: '/market/market',
  // The template instrument (src/app/shell-fill.ts TEMPLATE_SYMBOL), filled in the browser.
  detail: '/market/marketDetail?symbol=0000',
  // A member's landing; its index card is filled in the browser (src/app/shell-fill.ts).
  home: '/home/index',
} as const;
/** The prerendered screens' route modules, whose CSS index.html links with FIRST_SCREEN's. */
const SHELL_SCREENS = [
  'src/features/market/routes/market.tsx',
  'src/app/tab-nav.tsx',
  'src/features/market/routes/market-detail.tsx',
  'src/features/home/routes/home.tsx',
];

/**
 * Links the CSS of FIRST_SCREEN's and SHELL_SCREENS' chunks and their static imports as stylesheets in index.html
 * (skipping what the entry links): the static shell (`staticShell`) paints the landing screen
 * with them before any script runs, and Vite's chunk loader then finds them already applied.
 * Their scripts are not preloaded: a download or a module compile started before the first paint
 * delays it (src/app/entry.ts asks for them). Fails the build when a module is missing.
 */
function firstScreenStyles(): Plugin {
  return {
    name: 'tw-first-screen-styles',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.filename.endsWith('index.html')) return html;
        const chunks = Object.values(ctx.bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const files = new Set<string>();
        const css = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          const chunk = byFile.get(fileName);
          for (const f of chunk?.viteMetadata?.importedCss ?? []) css.add(f);
          for (const dep of chunk?.imports ?? []) visit(dep);
        };
        for (const id of [...FIRST_SCREEN, ...SHELL_SCREENS]) {
          const chunk = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(id));
          if (!chunk)
            throw new Error(`firstScreenStyles: no chunk for ${id} (renamed? update vite.config.ts)`);
          visit(chunk.fileName);
        }
        const tags: HtmlTagDescriptor[] = [...css]
          .filter((f) => !html.includes(`/${f}"`))
          .map((f) => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', crossorigin: true, href: `/${f}` },
            injectTo: 'head',
          }));
        return { html, tags };
      },
    },
  };
}

/** The boot script of the static shell (a classic script, see its docstring). */
const FIRST_PAINT_SRC = 'src/app/first-paint.ts';
const FIRST_PAINT_NAME = 'first-paint.js';

/**
 * Static shell: index.html paints the landing screen before any module has run. The real landing
 * screen is prerendered in each language with Vite's SSR loader (src/app/static-shell.tsx) into
 * `#root`, one hidden copy per language, and FIRST_PAINT_SRC (compiled, hashed, linked
 * render-blocking at the top of the head) shows the copy of the app's starting language on the
 * landing route only. React's first render replaces the copy with the same markup.
 */
function staticShell(): Plugin {
  let shells = '';
  return {
    name: 'tw-static-shell',
    apply: 'build',
    async buildStart() {
      const { code } = await transformWithOxc(
        readFileSync(resolve(root, FIRST_PAINT_SRC), 'utf8'),
        FIRST_PAINT_SRC,
        {
          lang: 'ts',
        },
      );
      this.emitFile({
        type: 'asset',
        name: FIRST_PAINT_NAME,
        source: minifySync(FIRST_PAINT_NAME, code).code,
      });
      // A separate SSR-only Vite instance: no config file (this one), antd-mobile transformed
      // (its ES modules import their CSS).
      const ssr = await createServer({
        root,
        configFile: false,
        logLevel: 'error',
        appType: 'custom',
        plugins: [react()],
        server: { middlewareMode: true, hmr: false, ws: false },
        ssr: { noExternal: ['antd-mobile'] },
      });
      try {
        const mod = (await ssr.ssrLoadModule('/src/app/static-shell.tsx')) as {
          renderShell: typeof renderShell;
        };
        const out: string[] = [];
        for (const [name, route] of Object.entries(SHELL_ROUTES))
          for (const [lang, htmlLang] of [
            ['tw', 'zh-Hant-TW'],
            ['en', 'en'],
          ] as const) {
            const strings = JSON.parse(readFileSync(resolve(root, `locales/${lang}.json`), 'utf8'));
            const markup = await mod.renderShell(lang, strings, route);
            // Test ids stay unique to the live app: a test never finds (and taps) the copy.
            const copy = markup.replaceAll(/ data-testid="[^"]*"/g, '');
            out.push(
              `<div class="static-shell" data-shell-lang="${lang}" data-shell-route="${name}" lang="${htmlLang}">${copy}</div>`,
            );
          }
        shells = out.join('');
      } finally {
        await ssr.close();
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.filename.endsWith('index.html')) return html;
        const boot = Object.values(ctx.bundle).find(
          (f) => f.type === 'asset' && f.names.includes(FIRST_PAINT_NAME),
        );
        if (!boot || !shells) throw new Error('staticShell: no boot script or no prerendered shell');
        const charset = '<meta charset="UTF-8" />';
        if (!html.includes('<div id="root"></div>') || !html.includes(charset))
          throw new Error('staticShell: index.html has no empty #root or no charset meta');
        // Right after the charset: it runs before the stylesheets are parsed, and they block
        // rendering anyway, so it costs the first paint no extra round trip.
        return html
          .replace(charset, `${charset}\n    <script src="/${boot.fileName}"></script>`)
          .replace('<div id="root"></div>', `<div id="root">${shells}</div>`);
      },
    },
  };
}

/** Writes `.br`/`.gz` next to each text file once the whole build (public/ included) is on disk. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'tw-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const rows = precompressDir(outDir);
      const kept = rows.filter((r) => r.br !== null).length;
      this.info(`precompressed ${kept} of ${rows.length} text files (.br, .gz)`);
    },
  };
}

export default defineConfig({
  plugins: [react(), staticShell(), firstScreenStyles(), precompress()],
  worker: { format: 'es' },
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/ws': { target: API_TARGET, ws: true, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/ws': { target: API_TARGET, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    manifest: true,
    rollupOptions: {
      input: {
        index: resolve(root, 'index.html'),
        admin: resolve(root, 'admin.html'),
      },
      treeshake: { moduleSideEffects: (id) => !FEATURE_ENTRY.test(id) },
      output: {
        codeSplitting: {
          groups: [
            // The entry's only import: on its own, so no module shared by later chunks joins it.
            { name: 'preload-helper', test: /vite[\\/](preload-helper|modulepreload-polyfill)/, priority: 4 },
            { name: 'vendor', test: VENDOR, priority: 3 },
            { name: 'klinecharts', test: /node_modules[\\/]klinecharts[\\/]/, priority: 3 },
            { name: 'ui-global', test: UI_KIT_GLOBAL, priority: 3, includeDependenciesRecursively: false },
            { name: 'ui-base', test: UI_KIT_LANDING, priority: 2 },
            { name: 'ui-render', test: UI_KIT_RENDER, priority: 2 },
            { name: 'ui', test: (id) => UI_KIT.test(id) && !NOT_UI_KIT.test(id), priority: 1 },
            { name: appChunk, debugName: 'app', priority: 1, includeDependenciesRecursively: false },
            {
              name: sharedLayerChunk,
              debugName: 'shared',
              priority: 1,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
