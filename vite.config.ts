/**
 * Client build: React, two HTML entries (the member app and the operator console), ES-module
 * worker, and a dev proxy to the API server for /api and the /ws socket. Output in dist/, which
 * the server serves on the same origin as /api and /ws.
 *
 * Chunking: the libraries every screen needs (React, the router, Redux Toolkit, i18next) are one
 * `vendor` chunk (one request, better compression, cached across releases of the app code), and
 * klinecharts is its own `klinecharts` chunk, loaded with the detail screen only. The manifest
 * (dist/.vite/manifest.json) lets scripts/bundle-budget.mjs measure the first screen.
 *
 * First screen: index.html also modulepreloads the default language's strings and the landing
 * route's chunk (`preloadFirstScreen`), which main.tsx would otherwise request only after the
 * entry and vendor chunks have downloaded and run: one round trip less before the first paint.
 *
 * Compression: after the bundle is written, `precompress` puts a brotli `.br` and a gzip `.gz`
 * next to every text file of dist/ (scripts/precompress.mjs); the server sends those variants
 * (server/http/static-client.ts), so nothing is compressed per request.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';
import { precompressDir } from './scripts/precompress.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
const API_TARGET = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

const VENDOR =
  /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@reduxjs[\\/]toolkit|immer|redux|redux-thunk|reselect|react-redux|use-sync-external-store|i18next|react-i18next)[\\/]/;

/**
 * Modules index.html's first render waits for besides its entry: the landing route (`/` redirects
 * to /login/start, src/app/router.tsx) and the default language's two string chunks
 * (src/app/i18n.ts). The same list as scripts/bundle-budget.mjs's first screen.
 */
const FIRST_SCREEN = [
  'src/features/auth/routes/start.tsx',
  'locales/tw.json',
  'node_modules/antd-mobile/es/locales/zh-TW.js',
];

/**
 * Adds `<link rel="modulepreload">` to index.html for FIRST_SCREEN's chunks and their static
 * imports (and `<link rel="preload" as="style">` for their CSS), skipping what the entry lists.
 * Fails the build when a module is missing, so a rename cannot silently drop the preloads.
 */
function preloadFirstScreen(): Plugin {
  return {
    name: 'tw-preload-first-screen',
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
        for (const id of FIRST_SCREEN) {
          const chunk = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(id));
          if (!chunk)
            throw new Error(`preloadFirstScreen: no chunk for ${id} (renamed? update vite.config.ts)`);
          visit(chunk.fileName);
        }
        // After the entry's own tags (charset first); CSS only preloaded, not render-blocking: the
        // route's chunk loader applies it, and other landing routes do not need it.
        const tags: HtmlTagDescriptor[] = [];
        const link = (attrs: Record<string, string | boolean>) =>
          tags.push({ tag: 'link', attrs: { crossorigin: true, ...attrs }, injectTo: 'head' });
        for (const f of files) if (!html.includes(`/${f}"`)) link({ rel: 'modulepreload', href: `/${f}` });
        for (const f of css)
          if (!html.includes(`/${f}"`)) link({ rel: 'preload', as: 'style', href: `/${f}` });
        return { html, tags };
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
  plugins: [react(), preloadFirstScreen(), precompress()],
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
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', test: VENDOR },
            { name: 'klinecharts', test: /node_modules[\\/]klinecharts[\\/]/ },
          ],
        },
      },
    },
  },
});
