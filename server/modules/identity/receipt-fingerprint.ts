/**
 * What a transfer receipt looks like, independent of its bytes: the same picture with a byte
 * appended, its metadata stripped or re-encoded (PNG → JPEG) is the same receipt.
 *
 * - `pixelsSha256`: sha256 (hex) of the decoded pixels (sharp/libvips, turned upright, at most
 *   UPLOAD_MAX_SIDE_PX a side, 8-bit RGBA) with the width and height: equal for two files that
 *   decode to the same picture (trailing bytes, metadata, a lossless re-encoding). What a member's
 *   live deposits must not share (funds/handlers.ts) and what flags another member's deposit.
 * - `phash`: a 256-bit perceptual hash (64 hex characters), the DCT hash of Zauner's "Implementation
 *   and Benchmarking of Perceptual Image Hash Functions" (2010) as the `imagehash` library's
 *   `phash(hash_size=16)` computes it: greyscale, resized to 64 × 64, 2-D DCT-II, the 16 × 16
 *   lowest frequencies, each bit "above the median of those 256". Near-equal for a lossy
 *   re-encoding or a rescale; the Hamming distance of two hashes (`phashDistance`) at most
 *   RECEIPT_NEAR_DISTANCE_MAX (contract/admin.ts) lists a deposit as a near match for the reviewer.
 *   256 bits, not the common 64: at 64 bits two different receipts of one bank's template
 *   (other amount, account and time) were as close (2 bits) as a JPEG re-encoding of one receipt;
 *   at 256 bits they are 24 apart and the re-encoding 6 (tests/security/receipt-reuse.test.ts).
 * Computed here from sharp's pixels: the kept packages did not separate receipts (docs/adr/0046).
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { fail } from '../common/errors';
import { UPLOAD_MAX_PIXELS, UPLOAD_MAX_SIDE_PX } from './uploads';

/** A receipt's picture identity: exact decoded pixels and the perceptual hash. */
export interface ReceiptFingerprint {
  pixelsSha256: string;
  phash: string;
}

/** Side of the greyscale image the DCT runs on, and of the low-frequency block kept. */
const DCT_SIDE = 64;
const HASH_SIDE = 16;

/** cos((2x + 1) u π / 2N) for u < HASH_SIDE, x < DCT_SIDE: the DCT-II basis, row u. */
const COS = Array.from({ length: HASH_SIDE }, (_, u) =>
  Float64Array.from({ length: DCT_SIDE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * DCT_SIDE))),
);

/**
 * The perceptual hash of 64 × 64 greyscale pixels (row-major, one byte each): 256 bits as 64 hex
 * characters, bit i (row-major over the 16 × 16 lowest DCT frequencies) set when that coefficient
 * is above the block's median.
 */
export function phashOfGrey(px: Uint8Array): string {
  // Separable DCT: columns of each row first (64 × 16), then the rows (16 × 16).
  const rows = new Float64Array(DCT_SIDE * HASH_SIDE);
  for (let y = 0; y < DCT_SIDE; y++)
    for (let v = 0; v < HASH_SIDE; v++) {
      let s = 0;
      for (let x = 0; x < DCT_SIDE; x++) s += px[y * DCT_SIDE + x]! * COS[v]![x]!;
      rows[y * HASH_SIDE + v] = s;
    }
  const coeffs = new Float64Array(HASH_SIDE * HASH_SIDE);
  for (let u = 0; u < HASH_SIDE; u++)
    for (let v = 0; v < HASH_SIDE; v++) {
      let s = 0;
      for (let y = 0; y < DCT_SIDE; y++) s += rows[y * HASH_SIDE + v]! * COS[u]![y]!;
      coeffs[u * HASH_SIDE + v] = s;
    }
  const sorted = Float64Array.from(coeffs).sort();
  const median = (sorted[127]! + sorted[128]!) / 2;
  let hex = '';
  for (let i = 0; i < coeffs.length; i += 4) {
    let nibble = 0;
    for (let b = 0; b < 4; b++) nibble = (nibble << 1) | (coeffs[i + b]! > median ? 1 : 0);
    hex += nibble.toString(16);
  }
  return hex;
}

/** Bits set in each nibble value 0–15. */
const NIBBLE_BITS = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/** Hamming distance of two perceptual hashes of equal length (hex), in bits. */
export function phashDistance(a: string, b: string): number {
  if (a.length !== b.length) throw new RangeError('phash lengths differ');
  let d = 0;
  for (let i = 0; i < a.length; i++) d += NIBBLE_BITS[parseInt(a[i]!, 16) ^ parseInt(b[i]!, 16)]!;
  return d;
}

/**
 * The fingerprint of an image file that reencodeImage (identity/uploads.ts) has accepted.
 * @throws AppError unsupportedFileType (400) if sharp cannot decode the bytes after all.
 */
export async function receiptFingerprint(bytes: Buffer): Promise<ReceiptFingerprint> {
  // The options reencodeImage decoded the same bytes with, so what it accepted decodes here too.
  const open = () =>
    sharp(bytes, { failOn: 'truncated', limitInputPixels: UPLOAD_MAX_PIXELS, pages: 1 }).rotate();
  const decoded = Promise.all([
    open()
      .resize({
        width: UPLOAD_MAX_SIDE_PX,
        height: UPLOAD_MAX_SIDE_PX,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .ensureAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true }),
    open()
      .flatten({ background: '#ffffff' })
      .resize(DCT_SIDE, DCT_SIDE, { fit: 'fill' })
      .toColourspace('b-w')
      .raw()
      .toBuffer(),
  ]);
  const [{ data, info }, grey] = await decoded.catch(() => {
    throw fail('unsupportedFileType');
  });
  const pixelsSha256 = createHash('sha256')
    .update(`${info.width}x${info.height}x${info.channels}:`)
    .update(data)
    .digest('hex');
  return { pixelsSha256, phash: phashOfGrey(grey) };
}
