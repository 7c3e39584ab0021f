/**
 * Files for upload tests: real (tiny) images the server must accept, and files that lie about
 * their type (sent as image/png named *.png) which it must refuse by content.
 */
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

/** A real PNG (distinct bytes per `n`: a trailing comment after IEND keeps it a PNG). */
export const png = (n = 0): FilePart => ({
  bytes: Buffer.concat([PNG_BYTES, Buffer.from(`#${n}`)]),
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
