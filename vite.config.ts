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
 * Compression: after the bundle is written, `precompress` puts a brotli `.br` and a gzip `.gz`
 * next to every text file of dist/ (scripts/precompress.mjs); the server sends those variants
 * (server/http/static-client.ts), so nothing is compressed per request.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressDir } from './scripts/precompress.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
const API_TARGET = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

const VENDOR =
  /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@reduxjs[\\/]toolkit|immer|redux|redux-thunk|reselect|react-redux|use-sync-external-store|i18next|react-i18next)[\\/]/;

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
  plugins: [react(), precompress()],
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
