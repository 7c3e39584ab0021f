/**
 * One receipt, many deposits, replayed on PGlite and PostgreSQL: a receipt is its picture, not its
 * bytes (server/modules/identity/receipt-fingerprint.ts, funds/handlers.ts, deposit-review.ts).
 * - the same receipt with one byte appended is the same picture: refused 409 receiptAlreadyUsed
 *   for the member who has it in a live deposit (nothing written), accepted for another member
 *   and flagged in the operator's list (`receiptMatches`) on both deposits;
 * - the same pixels re-encoded PNG → JPEG q95 are not the same bytes or decoded pixels, but the
 *   operator sees the original as a near match (`receiptNearMatches`, with the distance);
 * - a genuinely different receipt (another transfer on the same bank's template) matches nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIPT_NEAR_DISTANCE_MAX } from '../../contract/admin';
import { uploads } from '../../server/db/schema';
import { phashDistance, receiptFingerprint } from '../../server/modules/identity/receipt-fingerprint';
import { INVITE, startHarness, type Harness } from '../integration/harness';
import { idem, injectClient, uploadOk, type ApiClient, type FilePart } from '../integration/support/client';
import { ALL_TABLES, fingerprint } from '../integration/support/fingerprint';
import { ensureVerified, ok, register } from '../integration/support/members';

let h: Harness;
let c: ApiClient;
let dataDir: string;
let op: string;
let channelId: number;

/** A bank app's transfer confirmation as a phone screenshot (390 × 700), PNG. */
async function receiptPng(amount: string, time: string, account: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="390" height="700">
  <rect width="100%" height="100%" fill="#fff"/><rect width="100%" height="90" fill="#0a6"/>
  <text x="20" y="55" font-size="28" fill="#fff" font-family="sans-serif">Cathay Bank transfer</text>
  <text x="20" y="160" font-size="22" font-family="sans-serif">Transfer successful</text>
  <text x="20" y="240" font-size="40" font-family="sans-serif" font-weight="bold">NT$ ${amount}</text>
  <text x="20" y="320" font-size="20" font-family="sans-serif">To account ${account}</text>
  <text x="20" y="370" font-size="20" font-family="sans-serif">Time ${time}</text>
  <text x="20" y="420" font-size="20" font-family="sans-serif">Ref ${[...account].reverse().join('')}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const part = (bytes: Buffer, type: 'png' | 'jpeg'): FilePart => ({
  bytes,
  filename: `receipt.${type === 'png' ? 'png' : 'jpg'}`,
  contentType: `image/${type}`,
});

let original: Buffer;
let appended: Buffer;
let reencoded: Buffer;
let different: Buffer;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tw-receipts-'));
  h = await startHarness({ dataDir });
  c = injectClient(h.app);
  op = await h.operatorToken();
  await h.openDepositHours();
  channelId = await h.depositChannel();
  original = await receiptPng('12,345', '2026-12-07 10:21', '0123456789');
  appended = Buffer.concat([original, Buffer.from([0x00])]);
  // The same pixels, decoded and written again as a high-quality JPEG.
  reencoded = await sharp(original).jpeg({ quality: 95 }).toBuffer();
  different = await receiptPng('98,760', '2026-12-07 11:48', '0987654321');
}, 120_000);

afterAll(async () => {
  await h?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const recharge = (token: string, receiptUploadId: string, amountMinor = 1_234_500) =>
  c.call('user/recharge', { channelId, amountMinor, receiptUploadId }, token, idem());

/** The operator's view of one deposit (all states). */
async function reviewed(id: number) {
  const list = ok(await c.call('admin/deposits', { status: 'all', pageSize: 200 }, op), 'admin/deposits');
  return list.items.find((d: { id: number }) => d.id === id);
}

describe('receipt fingerprints', () => {
  it('the appended byte keeps the picture; the JPEG is near; another transfer is far', async () => {
    const [o, a, r, d] = await Promise.all([
      receiptFingerprint(original),
      receiptFingerprint(appended),
      receiptFingerprint(reencoded),
      receiptFingerprint(different),
    ]);
    expect(a).toEqual(o);
    expect(r.pixelsSha256).not.toBe(o.pixelsSha256);
    const near = phashDistance(o.phash, r.phash);
    const far = phashDistance(o.phash, d.phash);
    console.log(`receipt phash distances (bits of 256): JPEG q95 ${near}, another transfer ${far}`);
    expect(near).toBeLessThanOrEqual(RECEIPT_NEAR_DISTANCE_MAX);
    expect(far).toBeGreaterThan(RECEIPT_NEAR_DISTANCE_MAX);
    expect(phashDistance(o.phash, o.phash)).toBe(0);
  });
});

describe('one receipt, many deposits', () => {
  let M: string;
  let N: string;
  let first: number;
  let firstUpload: string;
  const uploadRow = async (id: string) =>
    (await h.database.db.select().from(uploads).where(eq(uploads.id, id)))[0]!;

  beforeAll(async () => {
    M = await register(c, '0933000001', INVITE);
    N = await register(c, '0933000002', INVITE);
    // Deposits need a verified identity.
    await ensureVerified(c, op, M);
    await ensureVerified(c, op, N);
    firstUpload = await uploadOk(c, M, 'receipt', part(original, 'png'));
    first = ok(await recharge(M, firstUpload), 'first').id;
  });

  it('refuses the same receipt with a byte appended for the same member, writing nothing', async () => {
    const upload = await uploadOk(c, M, 'receipt', part(appended, 'png'));
    // Other bytes, the same picture.
    const [was, now] = [await uploadRow(firstUpload), await uploadRow(upload)];
    expect(now.receivedSha256).not.toBe(was.receivedSha256);
    expect([now.pixelsSha256, now.phash]).toEqual([was.pixelsSha256, was.phash]);
    const before = await fingerprint(
      h.database.db,
      ALL_TABLES.filter((t) => t !== 'idempotency_keys'),
    );
    const r = await recharge(M, upload);
    expect([r.http, r.body]).toEqual([409, { status: 0, msg: 'receiptAlreadyUsed', data: null }]);
    expect(
      await fingerprint(
        h.database.db,
        ALL_TABLES.filter((t) => t !== 'idempotency_keys'),
      ),
    ).toEqual(before);
  });

  it("flags another member's deposit with the appended copy as the same receipt, both ways", async () => {
    const theirs = ok(await recharge(N, await uploadOk(c, N, 'receipt', part(appended, 'png'))), 'N').id;
    const mId = await h.userId('0933000001');
    const nId = await h.userId('0933000002');
    expect((await reviewed(theirs)).receiptMatches).toEqual([
      { id: first, userId: mId, account: '0933000001', status: 'pending' },
    ]);
    expect((await reviewed(first)).receiptMatches).toEqual([
      { id: theirs, userId: nId, account: '0933000002', status: 'pending' },
    ]);
  });

  it('shows the PNG → JPEG q95 copy to the operator as a near match of the original', async () => {
    const copy = ok(await recharge(M, await uploadOk(c, M, 'receipt', part(reencoded, 'jpeg'))), 'JPEG').id;
    const row = await reviewed(copy);
    expect(row.receiptMatches).toEqual([]);
    const near = row.receiptNearMatches as Array<{ id: number; account: string; distance: number }>;
    // The original and the other member's appended copy: both the same picture as the original.
    const byNumber = (a: number, b: number) => a - b;
    expect(near.map((m) => m.id).sort(byNumber)).toEqual(
      [first, (await reviewed(first)).receiptMatches[0].id].sort(byNumber),
    );
    for (const m of near) expect(m.distance).toBeLessThanOrEqual(RECEIPT_NEAR_DISTANCE_MAX);
    // And the original lists the copy.
    expect((await reviewed(first)).receiptNearMatches.map((m: { id: number }) => m.id)).toContain(copy);
    // The approve answer carries it too.
    const approved = ok(await c.call('admin/approveDeposit', { id: copy }, op), 'approve');
    expect(approved.receiptNearMatches.map((m: { id: number }) => m.id)).toContain(first);
  });

  it('matches nothing for a genuinely different receipt', async () => {
    const other = ok(await recharge(M, await uploadOk(c, M, 'receipt', part(different, 'png'))), 'other').id;
    const row = await reviewed(other);
    expect([row.receiptMatches, row.receiptNearMatches]).toEqual([[], []]);
  });
});
