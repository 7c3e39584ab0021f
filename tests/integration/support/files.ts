/**
 * Files for upload tests: real (tiny) images the server must accept, and files that lie about
 * their type (sent as image/png named *.png) which it must refuse by content.
 */
import { crc32, deflateSync } from 'node:zlib';
import { UPLOAD_MAX_BYTES } from '../../../contract/constants';
import type { FilePart } from './client';

/** A valid 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A valid 2×2 baseline JPEG (white; decodes in full). */
export const JPEG_BYTES = Buffer.from(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKAAD//Z',
  'base64',
);
/** A valid 2×2 lossy WebP (white). */
export const WEBP_BYTES = Buffer.from(
  'UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoCAAIAAsBMJaQAA3AA/veMAAA=',
  'base64',
);

/** A PNG chunk: length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A valid 2×2 RGB PNG whose first pixel encodes `n` (0 ≤ n < 2^24): distinct decoded pixels per
 * `n`, so the server (which matches receipts by picture) sees different images.
 */
export function pngPixels(n: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  const rows = Buffer.from([
    0,
    n & 255,
    (n >> 8) & 255,
    (n >> 16) & 255,
    255,
    255,
    255,
    0,
    0,
    0,
    0,
    128,
    128,
    128,
  ]);
  return Buffer.concat([
    PNG_BYTES.subarray(0, 8),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A real PNG, a different picture per `n` (pngPixels), with `#n` after IEND (bytes the server
 * drops when it re-encodes).
 */
export const png = (n = 0): FilePart => ({
  bytes: Buffer.concat([pngPixels(n), Buffer.from(`#${n}`)]),
  filename: `photo-${n}.png`,
  contentType: 'image/png',
});

export const jpeg = (): FilePart => ({ bytes: JPEG_BYTES, filename: 'photo.jpg', contentType: 'image/jpeg' });

/** Files whose content is not an accepted image, each sent as image/png named *.png. */
export const LYING_FILES: Array<{ label: string; file: FilePart }> = [
  {
    label: 'plain text',
    file: {
      bytes: Buffer.from('just some text, not an image\n'),
      filename: 'id.png',
      contentType: 'image/png',
    },
  },
  {
    label: 'HTML with a script',
    file: {
      bytes: Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'),
      filename: 'id.png',
      contentType: 'image/png',
    },
  },
  {
    label: 'SVG with a script',
    file: {
      bytes: Buffer.from(
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>',
      ),
      filename: 'id.png',
      contentType: 'image/png',
    },
  },
  {
    label: 'PDF',
    file: {
      bytes: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
      filename: 'id.png',
      contentType: 'image/png',
    },
  },
  {
    label: 'empty file',
    file: { bytes: Buffer.alloc(0), filename: 'id.png', contentType: 'image/png' },
  },
];

/** A PNG of UPLOAD_MAX_BYTES + 1 bytes (a real PNG followed by padding). */
export const oversizedPng = (): FilePart => ({
  bytes: Buffer.concat([PNG_BYTES, Buffer.alloc(UPLOAD_MAX_BYTES + 1 - PNG_BYTES.length, 0x20)]),
  filename: 'big.png',
  contentType: 'image/png',
});
