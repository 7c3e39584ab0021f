/**
 * Build-time compression of the client: writes `<file>.br` (brotli, quality 11) and `<file>.gz`
 * (gzip, level 9) next to every compressible file of a directory tree (the Vite `dist/`), so the
 * server sends the smaller file with `content-encoding` and never compresses on the request path
 * (server/http/static-client.ts serves them with @fastify/static `preCompressed`). Plain ESM so
 * that vite.config.ts, the tests and `node` itself can load it (types: precompress.d.mts).
 *
 * Compressible: the text types the client build emits (js, css, html, svg, json, webmanifest,
 * txt). A variant is written only if it saves at least MIN_SAVING of the original (tiny files grow
 * when compressed; the server then falls back to the original). Existing variants are overwritten.
 *
 * CLI: `node scripts/precompress.mjs [dir]` (default dist).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
/* global console */
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(m?js|css|html|svg|json|webmanifest|txt)$/;
/** Keep a variant only if it is at most 90 % of the original (a few bytes saved cost a decode). */
const MIN_SAVING = 0.1;

/** @param {string} dir @returns {Generator<string>} */
function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Compresses every compressible file under `dir` (recursively) in place. Synchronous: it runs
 * once after `vite build` (a few seconds for dist/).
 *
 * @param {string} dir
 * @returns {{file: string, bytes: number, br: number | null, gz: number | null}[]} one row per
 *   compressible file: path relative to `dir` (forward slashes), original size and the size of
 *   each variant in bytes (null when not worth keeping, so not written)
 */
export function precompressDir(dir) {
  const rows = [];
  for (const full of walk(dir)) {
    if (!COMPRESSIBLE.test(full)) continue;
    const source = readFileSync(full);
    /** @param {Buffer} out @param {string} ext */
    const keep = (out, ext) => {
      if (out.length > source.length * (1 - MIN_SAVING)) return null;
      writeFileSync(full + ext, out);
      return out.length;
    };
    const br = brotliCompressSync(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    });
    rows.push({
      file: path.relative(dir, full).split(path.sep).join('/'),
      bytes: source.length,
      br: keep(br, '.br'),
      gz: keep(gzipSync(source, { level: 9 }), '.gz'),
    });
  }
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = precompressDir(path.resolve(process.argv[2] ?? 'dist'));
  console.log(`precompressed ${rows.filter((r) => r.br !== null).length} of ${rows.length} text files`);
}
