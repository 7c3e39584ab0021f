/**
 * How the built client (Vite `dist/`) and the API's answers reach a phone on its first load
 * (registered in server/app.ts):
 *
 * - Compression: the build writes brotli `.br` and gzip `.gz` next to each text file
 *   (scripts/precompress.mjs); `preCompressed` sends the best variant the request's
 *   `accept-encoding` allows (br, then gzip) with `content-encoding`, and the original otherwise.
 *   Every response carries `vary: accept-encoding` so a shared cache keeps the variants apart.
 * - Caching: files under `assets/` carry a content hash in their name (Vite), so a URL never
 *   changes content: `cache-control: public, max-age=31536000, immutable` (one year; `immutable`,
 *   RFC 8246, spares the revalidation on reload). Everything else (index.html, admin.html, icons,
 *   the web manifest) keeps its URL across releases: `no-cache`, i.e. stored but revalidated by
 *   ETag on every use, so a release reaches the next page load and an unchanged file costs a 304.
 * - Dynamic answers under /api/ (the JSON envelopes: the market list, candles) are compressed per
 *   request by @fastify/compress when they reach COMPRESS_THRESHOLD_BYTES, brotli at quality 4
 *   (its default: most of quality 11's gain at a small fraction of the CPU), else gzip. Other
 *   routes are left alone: the client's files are compressed once at build time, and a file
 *   without a variant is one that does not gain from it. Request bodies are
 *   never decompressed: no client of ours sends them compressed, and inflating them would only
 *   give a sender a way to make the server do more work than the bytes it sent.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import type { FastifyStaticOptions } from '@fastify/static';

/** Smaller replies are sent as they are: the headers and a decoder cost more than they save. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses the replies of every /api/ route registered after it (register it before the routes).
 * Encodings in order of preference: br, gzip; none for `accept-encoding: identity` or a missing
 * header.
 */
export async function registerResponseCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook (registered next), which reads `compress`.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') && route.compress === undefined) route.compress = false;
  });
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    globalDecompression: false,
  });
}

/** `cache-control` of hashed build output (file names change whenever the content does). */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** `cache-control` of files whose URL outlives a release (HTML entries, icons, manifest). */
export const REVALIDATE_CACHE = 'no-cache';

/** @fastify/static options serving `clientDir` at `/` (index.html for `/`), as in the module docstring. */
export function staticClientOptions(clientDir: string): FastifyStaticOptions {
  const assetsDir = path.join(path.resolve(clientDir), 'assets') + path.sep;
  return {
    root: clientDir,
    index: ['index.html'],
    preCompressed: true,
    // Set per file below; @fastify/send's default (`public, max-age=0`) fits neither kind.
    cacheControl: false,
    setHeaders(reply, filePath) {
      // filePath is the file actually sent, possibly `x.js.br`: its directory decides.
      reply.header(
        'cache-control',
        path.resolve(filePath).startsWith(assetsDir) ? IMMUTABLE_CACHE : REVALIDATE_CACHE,
      );
    },
  };
}
