/**
 * First load on a phone: the built client is served compressed and cached right, through the
 * whole app (buildApp via the integration harness, PGlite or PostgreSQL) on a small fixture
 * `dist/` written here and compressed by the same step the build runs (scripts/precompress.mjs),
 * so no Vite build is needed.
 *
 * - A hashed chunk under /assets/ comes as brotli when the client accepts it, as gzip when only
 *   gzip is accepted, as is otherwise; always `immutable` for a year and `vary: accept-encoding`.
 * - HTML entries (`/`, `/index.html`, `/admin.html`) are `no-cache` (revalidated: 304 on a
 *   matching ETag), never immutable.
 * - A file too small to gain from compression has no variant and is sent as is.
 * - The API's JSON answers are compressed per request (brotli, else gzip) above 1 KiB, and sent
 *   as they are to a client that accepts no compression.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress.mjs';
import { startHarness, type Harness } from '../integration/harness';

const VENDOR = 'assets/vendor-Ab12Cd34.js';
const TINY = 'assets/tiny-Zz99Yy88.js';

/** ~40 KB of varied but compressible JavaScript, like a vendor chunk. */
function vendorSource(): string {
  const lines: string[] = [];
  for (let i = 0; i < 800; i++)
    lines.push(`export function f${i}(a,b){return a*${i % 97}+b-${(i * 7919) % 1013};}`);
  return lines.join('\n');
}

function html(title: string, script: string): string {
  const meta = Array.from({ length: 30 }, (_, i) => `<meta name="x-${i}" content="fixture ${i}" />`);
  return `<!doctype html><html lang="zh-Hant-TW"><head><title>${title}</title>${meta.join('')}<script type="module" src="/${script}"></script></head><body><div id="root"></div></body></html>`;
}

let dir: string;
let h: Harness;
const vendor = vendorSource();
const indexHtml = html('TW Trade', VENDOR);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tw-first-load-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, VENDOR), vendor);
  writeFileSync(path.join(dir, TINY), 'export const a=1;');
  writeFileSync(path.join(dir, 'index.html'), indexHtml);
  writeFileSync(path.join(dir, 'admin.html'), html('TW Trade Console', VENDOR));
  precompressDir(dir);
  h = await startHarness({ clientDir: dir });
});

afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'GET', url, headers });

describe('precompressed, immutable hashed assets', () => {
  it('writes .br and .gz next to a compressible chunk, none next to a tiny one', () => {
    expect(existsSync(path.join(dir, `${VENDOR}.br`))).toBe(true);
    expect(existsSync(path.join(dir, `${VENDOR}.gz`))).toBe(true);
    expect(existsSync(path.join(dir, `${TINY}.br`))).toBe(false);
    expect(existsSync(path.join(dir, `${TINY}.gz`))).toBe(false);
  });

  it('sends the vendor chunk as brotli to a client accepting br, cached immutable for a year', async () => {
    const res = await get(`/${VENDOR}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(res.rawPayload.length).toBeLessThan(vendor.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(vendor);
  });

  it('sends gzip when only gzip is accepted', async () => {
    const res = await get(`/${VENDOR}`, { 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(gunzipSync(res.rawPayload).toString()).toBe(vendor);
  });

  it('sends the original to a client accepting no compression, still immutable', async () => {
    const res = await get(`/${VENDOR}`, { 'accept-encoding': 'identity' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(res.body).toBe(vendor);
  });

  it('sends a file without variants as is, with br accepted', async () => {
    const res = await get(`/${TINY}`, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe('export const a=1;');
  });
});

describe('HTML is revalidated, never cached immutable', () => {
  it.each(['/', '/index.html', '/admin.html'])('%s: no-cache, compressed, text/html', async (url) => {
    const res = await get(url, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<div id="root">');
  });

  it('/ without compression is index.html, and a matching ETag gets 304', async () => {
    const first = await get('/');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.body).toBe(indexHtml);
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await get('/', { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
  });
});

describe('API answers are compressed per request', () => {
  const list = (headers: Record<string, string>) =>
    h.app.inject({
      method: 'POST',
      url: '/api/vue/market/list',
      headers: { 'content-type': 'application/json', ...headers },
      payload: { page: 1, size: 20 },
    });

  it('the market list comes as brotli, or gzip, and decodes to the same envelope as identity', async () => {
    const plain = await list({ 'accept-encoding': 'identity' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const envelope = plain.json();
    expect(envelope.status).toBe(1);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await list({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(envelope);

    const gz = await list({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(envelope);
  });
});
