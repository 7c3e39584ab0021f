/**
 * How the built client (Vite `dist/`) is served on the same origin as /api and /ws, sized for a
 * phone's first load (options for @fastify/static, registered in server/app.ts):
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
 */
import path from 'node:path';
import type { FastifyStaticOptions } from '@fastify/static';

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
