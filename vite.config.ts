/**
 * Client build: React, two HTML entries (the member app and the operator console), ES-module
 * worker, and a dev proxy to the API server for /api and the /ws socket. Output in dist/, which
 * the server serves on the same origin as /api and /ws.
 *
 * Chunking: the libraries every screen needs (React, the router, Redux Toolkit, i18next) are one
 * `vendor` chunk (one request, better compression, cached across releases of the app code), and
 * klinecharts is its own `klinecharts` chunk, loaded with the detail screen only. The manifest
 * (dist/.vite/manifest.json) lets scripts/bundle-budget.mjs measure the first screen.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const API_TARGET = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

const VENDOR =
  /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@reduxjs[\\/]toolkit|immer|redux|redux-thunk|reselect|react-redux|use-sync-external-store|i18next|react-i18next)[\\/]/;

export default defineConfig({
  plugins: [react()],
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
