/**
 * Photos over the upload limit (UPLOAD_MAX_BYTES, 5 MiB) are made smaller in the browser before
 * they are sent, instead of being refused: a phone's camera easily takes 8 MB pictures of an ID
 * card. The image is decoded with `createImageBitmap` (EXIF orientation applied), drawn on a
 * canvas no larger than DOWNSCALE_MAX_SIDE on its longest side, and encoded as JPEG; while the
 * result is still too big, it is drawn again smaller (DOWNSCALE_STEP) and at a lower quality, up
 * to DOWNSCALE_TRIES times. No library: browser-image-compression is not a dependency, and this is
 * all it would do here. The server decodes and re-encodes every upload anyway (uploads.ts).
 */
import { UPLOAD_MAX_BYTES } from '../../contract/constants';

/** Longest side of a downscaled photo, px: an ID card stays readable at 2,560 px. */
export const DOWNSCALE_MAX_SIDE = 2_560;
/** Each further try draws the image this much smaller on each side. */
export const DOWNSCALE_STEP = 0.75;
/** Tries before giving up (the server's fileTooLarge then stands). */
export const DOWNSCALE_TRIES = 6;
/** JPEG quality of the first try; each further try 0.1 lower, never below 0.5. */
export const DOWNSCALE_QUALITY = 0.85;

/** One encoding attempt: the canvas size and the JPEG quality. */
export interface DownscaleTry {
  width: number;
  height: number;
  quality: number;
}

/**
 * The attempts, largest first, for an image of `width` × `height` px: the first fits
 * DOWNSCALE_MAX_SIDE (never enlarged), each next DOWNSCALE_STEP smaller with 0.1 less quality
 * (≥ 0.5); sides are whole pixels ≥ 1. Pure.
 */
export function downscaleTries(width: number, height: number): DownscaleTry[] {
  const first = Math.min(1, DOWNSCALE_MAX_SIDE / Math.max(width, height, 1));
  return Array.from({ length: DOWNSCALE_TRIES }, (_, i) => {
    const scale = first * DOWNSCALE_STEP ** i;
    return {
      width: Math.max(1, Math.round(width * scale)),
      height: Math.max(1, Math.round(height * scale)),
      quality: Math.max(0.5, Math.round((DOWNSCALE_QUALITY - 0.1 * i) * 100) / 100),
    };
  });
}

/** The browser calls used, injectable for tests (jsdom has no canvas or createImageBitmap). */
export interface ImageCodec {
  /** Decodes the file; its pixel size. */
  decode(file: Blob): Promise<{ width: number; height: number; close?: () => void }>;
  /** Draws the decoded image at `t`'s size and encodes it as JPEG at `t.quality`. */
  encode(image: unknown, t: DownscaleTry): Promise<Blob>;
}

const browserCodec: ImageCodec = {
  decode: (file) => createImageBitmap(file, { imageOrientation: 'from-image' }),
  async encode(image, t) {
    const canvas = document.createElement('canvas');
    canvas.width = t.width;
    canvas.height = t.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d canvas');
    // JPEG has no transparency: a PNG's transparent parts become white, not black.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, t.width, t.height);
    ctx.drawImage(image as CanvasImageSource, 0, 0, t.width, t.height);
    return new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('encode failed'))), 'image/jpeg', t.quality),
    );
  },
};

/**
 * `file` if it is at most `maxBytes`; else a JPEG of it no larger than `maxBytes` (same name, with
 * a .jpg extension), or null when it cannot be decoded or made small enough in DOWNSCALE_TRIES.
 */
export async function fitUnderLimit(
  file: File,
  maxBytes: number = UPLOAD_MAX_BYTES,
  codec: ImageCodec = browserCodec,
): Promise<File | null> {
  if (file.size <= maxBytes) return file;
  let image: Awaited<ReturnType<ImageCodec['decode']>>;
  try {
    image = await codec.decode(file);
  } catch {
    return null;
  }
  try {
    for (const t of downscaleTries(image.width, image.height)) {
      const blob = await codec.encode(image, t);
      if (blob.size <= maxBytes) {
        const name = file.name.replace(/\.[^.]*$/, '') + '.jpg';
        return new File([blob], name, { type: 'image/jpeg' });
      }
    }
    return null;
  } catch {
    return null;
  } finally {
    image.close?.();
  }
}
