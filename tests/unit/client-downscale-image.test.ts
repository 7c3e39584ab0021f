/**
 * Photos over the upload limit are made smaller in the browser, not refused
 * (src/ui/downscale-image.ts): the tries fit 2,560 px and shrink by a quarter each; a file under
 * the limit is sent as it is; an oversized one becomes the first JPEG try under the limit; one
 * that cannot be decoded or made small enough is null (fileTooLarge stands). The picker checks the
 * type only (HEIC is not claimed: the server's sharp decodes AVIF, not HEVC-coded HEIC).
 */
import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES, UPLOAD_MIME_TYPES } from '../../contract/constants';
import {
  DOWNSCALE_MAX_SIDE,
  DOWNSCALE_TRIES,
  downscaleTries,
  fitUnderLimit,
  type DownscaleTry,
  type ImageCodec,
} from '../../src/ui/downscale-image';
import { IMAGE_ACCEPT, preUploadError } from '../../src/ui/image-picker';
import { en, tw } from './support/strings';

describe('downscaleTries', () => {
  it('fits the longest side first, then a quarter smaller each try, lower quality', () => {
    const tries = downscaleTries(4_032, 3_024);
    expect(tries).toHaveLength(DOWNSCALE_TRIES);
    expect(tries[0]).toEqual({ width: DOWNSCALE_MAX_SIDE, height: 1_920, quality: 0.85 });
    expect(tries[1]).toEqual({ width: 1_920, height: 1_440, quality: 0.75 });
    expect(tries.at(-1)!.quality).toBe(0.5);
    for (let i = 1; i < tries.length; i++) expect(tries[i]!.width).toBeLessThan(tries[i - 1]!.width);
  });
  it('never enlarges a small image and keeps sides ≥ 1 px', () => {
    expect(downscaleTries(800, 600)[0]).toMatchObject({ width: 800, height: 600 });
    expect(downscaleTries(10_000, 1).every((t) => t.height >= 1)).toBe(true);
  });
});

/** A codec whose JPEG weighs `bytesPerPixel` per pixel of the try; records the tries. */
function fakeCodec(w: number, h: number, bytesPerPixel: number) {
  const seen: DownscaleTry[] = [];
  let closed = false;
  const codec: ImageCodec = {
    decode: async () => ({ width: w, height: h, close: () => (closed = true) }),
    encode: async (_img, t) => {
      seen.push(t);
      const n = Math.round(t.width * t.height * bytesPerPixel);
      // Only a size is read from a blob over the limit: no need to allocate it.
      return n <= UPLOAD_MAX_BYTES ? new Blob([new Uint8Array(n)]) : ({ size: n } as Blob);
    },
  };
  return { codec, seen, closed: () => closed };
}

const big = (bytes: number, name = 'IMG_0001.png', type = 'image/png') =>
  new File([new Uint8Array(bytes)], name, { type });

describe('fitUnderLimit', () => {
  it('sends a file under the limit as it is, without decoding it', async () => {
    const f = big(UPLOAD_MAX_BYTES);
    const { codec, seen } = fakeCodec(4_000, 3_000, 1);
    expect(await fitUnderLimit(f, UPLOAD_MAX_BYTES, codec)).toBe(f);
    expect(seen).toHaveLength(0);
  });

  it('turns an 8 MB photo into a JPEG under 5 MB, same name .jpg', async () => {
    // 2,560 × 1,920 at 1.2 B/px = 5.9 MB (too big); 1,920 × 1,440 = 3.3 MB fits.
    const { codec, seen, closed } = fakeCodec(4_032, 3_024, 1.2);
    const out = await fitUnderLimit(big(8_000_000), UPLOAD_MAX_BYTES, codec);
    expect(out).not.toBeNull();
    expect(out!.size).toBeLessThanOrEqual(UPLOAD_MAX_BYTES);
    expect(out!.type).toBe('image/jpeg');
    expect(out!.name).toBe('IMG_0001.jpg');
    expect(seen.map((t) => t.width)).toEqual([2_560, 1_920]);
    expect(closed()).toBe(true);
  });

  it('null when it cannot be decoded or never gets small enough', async () => {
    const broken: ImageCodec = {
      decode: async () => {
        throw new Error('not an image');
      },
      encode: async () => new Blob([]),
    };
    expect(await fitUnderLimit(big(6_000_000), UPLOAD_MAX_BYTES, broken)).toBeNull();
    const { codec, seen } = fakeCodec(4_000, 3_000, 1_000);
    expect(await fitUnderLimit(big(6_000_000), UPLOAD_MAX_BYTES, codec)).toBeNull();
    expect(seen).toHaveLength(DOWNSCALE_TRIES);
  });
});

describe('accepted types', () => {
  it('checks the type only; HEIC is neither accepted nor claimed', () => {
    expect(preUploadError({ type: 'image/jpeg' })).toBeNull();
    expect(preUploadError({ type: '' })).toBeNull();
    expect(preUploadError({ type: 'image/heic' })).toBe('unsupportedFileType');
    expect(IMAGE_ACCEPT).toBe(UPLOAD_MIME_TYPES.join(','));
    expect(IMAGE_ACCEPT).not.toMatch(/heic|heif/i);
    for (const s of [en, tw]) {
      expect(s.errors.unsupportedFileType).not.toMatch(/heic/i);
      expect(s.identity.photoHint).not.toMatch(/heic/i);
    }
  });
});
