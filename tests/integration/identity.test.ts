/**
 * Who the member is (issue 4 items 1–3): uploads checked by content and served only to their
 * owner and operators; the KYC flow submit → reject → resubmit → approve as the member sees it;
 * bank-card rules; the login password; the funds password with its lock and the operator unlock.
 */
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNDS_PASSWORD_MAX_TRIES, UPLOAD_MAX_BYTES } from '../../contract/constants';
import { UPLOADS_PER_DAY_MAX } from '../../server/modules/identity/uploads';
import { auditLog, bankCards, kycRecords, uploads, users, withdrawals } from '../../server/db/schema';
import { verifyFundsPassword } from '../../server/modules/identity/funds-password';
import { kycStatusOf, verifiedNameOf } from '../../server/modules/identity/kyc';
import { hashToken } from '../../server/modules/auth/sessions';
import { isUniqueViolation } from '../../server/modules/common/db-errors';
import { ensureMemberAccounts, ensurePlatformAccounts, move, post } from '../../server/modules/ledger/ledger';
import { startHarness, type Harness } from './harness';
import { JPEG_BYTES, WEBP_BYTES } from './support/files';

// ---------- helpers (multipart bodies for app.inject) ----------

/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A PNG with distinct bytes per `n` (data after IEND keeps it a PNG). */
const png = (n: number) => Buffer.concat([PNG, Buffer.from(`#${n}`)]);

interface FilePart {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

function multipart(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----identity${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.filename}"\r\ncontent-type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A valid national ID number (region A, male) distinct for each `n` < 10^7. */
function taiwanId(n: number): string {
  const weights = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1];
  const digits = [1, 0, 1, ...String(n).padStart(7, '0').split('').map(Number)];
  const sum = digits.reduce((acc, d, i) => acc + d * weights[i]!, 0);
  return `A1${String(n).padStart(7, '0')}${(10 - (sum % 10)) % 10}`;
}

let h: Harness;
let dataDir: string;
let op: string;

async function upload(token: string | undefined, purpose: string, file?: FilePart) {
  const { payload, contentType } = multipart({ purpose }, file);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/vue/upload',
    headers: { 'content-type': contentType, ...(token ? { token } : {}) },
    payload,
  });
  return { http: res.statusCode, body: res.json() };
}

async function uploadId(token: string, purpose: string, n: number): Promise<string> {
  const r = await upload(token, purpose, { bytes: png(n), filename: `p${n}.png`, contentType: 'image/png' });
  expect(r.body.status, JSON.stringify(r.body)).toBe(1);
  return r.body.data.id as string;
}

async function fetchUpload(id: string, token?: string) {
  const res = await h.app.inject({
    method: 'GET',
    url: `/api/vue/upload/${id}`,
    headers: token ? { token } : {},
  });
  return res;
}

async function stored(): Promise<{ rows: number; files: string[] }> {
  const [r] = await h.database.db.select({ n: count() }).from(uploads);
  const files = await readdir(path.join(dataDir, 'uploads')).catch(() => [] as string[]);
  return { rows: r!.n, files: files.sort() };
}

const userId = async (account: string) =>
  (await h.database.db.select({ id: users.id }).from(users).where(eq(users.account, account)))[0]!.id;

/** Submits KYC with fresh photos; returns the kyc record id (from the operator queue). */
async function submitKyc(token: string, name: string, idNumber: string, n: number) {
  const front = await uploadId(token, 'kycFront', n);
  const back = await uploadId(token, 'kycBack', n + 1);
  return h.call('user/submitKyc', { name, idNumber, frontUploadId: front, backUploadId: back }, token);
}

async function pendingKycIdOf(account: string): Promise<number> {
  const q = await h.call('admin/kyc', { status: 'pending' }, op);
  const item = q.body.data.items.find((i: { account: string }) => i.account === account);
  expect(item, `no pending KYC for ${account}`).toBeDefined();
  return item.id;
}

/** A member verified as `name` (upload, submit, operator approval). */
async function verifiedMember(account: string, name: string, idNumber: string, n: number) {
  const token = await h.register(account);
  const s = await submitKyc(token, name, idNumber, n);
  expect(s.body.status, JSON.stringify(s.body)).toBe(1);
  const ok = await h.call('admin/approveKyc', { id: await pendingKycIdOf(account) }, op);
  expect(ok.body.status, JSON.stringify(ok.body)).toBe(1);
  return token;
}

/** A Taiwan account at Bank of Taiwan (004), Guanqian branch (0037). */
const card = (o: object = {}) => ({
  holderName: '王小明',
  cardNumber: '0081234567890',
  bankCode: '004',
  bankName: '台灣銀行',
  branchName: '館前分行',
  branchCode: '0037',
  ...o,
});

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'identity-test-'));
  h = await startHarness({ dataDir });
  op = await h.operatorToken();
});
afterAll(async () => {
  await h?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// ---------- uploads ----------

describe('uploads', () => {
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    alice = await h.register('0911000001');
    bob = await h.register('0911000002');
  });

  it('accepts a real PNG, stores it re-encoded and privately (0600) and answers its id, purpose, type and stored size', async () => {
    const before = await stored();
    const r = await upload(alice, 'kycFront', {
      bytes: png(1),
      filename: 'front.png',
      contentType: 'image/png',
    });
    expect(r.http).toBe(200);
    expect(r.body).toMatchObject({
      status: 1,
      data: { purpose: 'kycFront', mime: 'image/png' },
    });
    expect(r.body.data.id).toMatch(/^[a-f0-9]{32}$/);
    const after = await stored();
    expect(after.rows).toBe(before.rows + 1);
    expect(after.files).toContain(r.body.data.id);
    const file = path.join(dataDir, 'uploads', r.body.data.id);
    const mode = (await stat(file)).mode & 0o777;
    expect(mode).toBe(0o600);
    // Stored re-encoded: a PNG of the same pixels, without the bytes after IEND.
    const saved = await readFile(file);
    expect(r.body.data.bytes).toBe(saved.length);
    expect(saved.includes(Buffer.from('#1'))).toBe(false);
    expect(await sharp(saved).metadata()).toMatchObject({ format: 'png', width: 1, height: 1 });
  });

  it('detects the type from the content, not the name or the declared type', async () => {
    // A PNG named .jpg and declared as text is still a PNG.
    const r = await upload(alice, 'receipt', { bytes: png(2), filename: 'x.jpg', contentType: 'text/plain' });
    expect(r.body).toMatchObject({ status: 1, data: { mime: 'image/png' } });
  });

  it('accepts JPEG and WebP by their content; refuses HEIC/HEIF (not decodable) and AVIF', async () => {
    /** The start of an ISO-BMFF file: a `ftyp` box with the given major brand. */
    const ftyp = (brand: string) => {
      const b = Buffer.alloc(64);
      b.writeUInt32BE(24, 0);
      b.write('ftyp', 4);
      b.write(brand, 8);
      b.write('mif1', 16);
      b.write(brand, 20);
      return b;
    };
    const cases: Array<[Buffer, string]> = [
      [JPEG_BYTES, 'image/jpeg'],
      [WEBP_BYTES, 'image/webp'],
    ];
    for (const [bytes, mime] of cases) {
      const r = await upload(alice, 'receipt', {
        bytes,
        filename: 'x.bin',
        contentType: 'application/octet-stream',
      });
      expect([mime, r.body.status, r.body.data?.mime]).toEqual([mime, 1, mime]);
    }
    // Magic bytes alone are not an image: a JPEG or WebP header followed by nothing decodable.
    const fakeJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(40)]);
    const fakeWebp = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.from([36, 0, 0, 0]),
      Buffer.from('WEBPVP8 '),
      Buffer.alloc(40),
    ]);
    // HEIC/HEIF (sharp's prebuilt libvips has no HEVC decoder) and other ISO-BMFF images.
    for (const bytes of [fakeJpeg, fakeWebp, ftyp('heic'), ftyp('mif1'), ftyp('avif')]) {
      const r = await upload(alice, 'receipt', {
        bytes,
        filename: 'x.heic',
        contentType: 'image/heic',
      });
      expect([r.http, r.body.msg]).toEqual([400, 'unsupportedFileType']);
    }
  });

  it('refuses a text file called x.png sent as image/png, writing nothing', async () => {
    const before = await stored();
    const r = await upload(alice, 'kycFront', {
      bytes: Buffer.from('not an image at all\n'),
      filename: 'x.png',
      contentType: 'image/png',
    });
    expect(r).toEqual({ http: 400, body: { status: 0, msg: 'unsupportedFileType', data: null } });
    expect(await stored()).toEqual(before);
  });

  it('refuses an image type outside the list (GIF) by content', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const r = await upload(alice, 'kycFront', { bytes: gif, filename: 'x.png', contentType: 'image/png' });
    expect(r.body.msg).toBe('unsupportedFileType');
  });

  it('accepts exactly 5 MiB and refuses 5 MiB + 1 with fileTooLarge, writing nothing', async () => {
    const exact = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES - PNG.length)]);
    const ok = await upload(bob, 'receipt', { bytes: exact, filename: 'big.png', contentType: 'image/png' });
    // Stored re-encoded: the padding after the image is gone.
    expect(ok.body).toMatchObject({ status: 1, data: { mime: 'image/png' } });
    expect(ok.body.data.bytes).toBeLessThan(1_000);
    const before = await stored();
    const tooBig = Buffer.concat([exact, Buffer.from([0])]);
    const r = await upload(bob, 'receipt', { bytes: tooBig, filename: 'big.png', contentType: 'image/png' });
    expect(r).toEqual({ http: 400, body: { status: 0, msg: 'fileTooLarge', data: null } });
    expect(await stored()).toEqual(before);
  });

  it('refuses a missing or unknown purpose, a missing file and a JSON body, writing nothing', async () => {
    const before = await stored();
    const file = { bytes: png(3), filename: 'a.png', contentType: 'image/png' };
    expect((await upload(alice, 'selfie', file)).body).toMatchObject({ status: 0, msg: 'parameterError' });
    const noPurpose = multipart({}, file);
    const r1 = await h.app.inject({
      method: 'POST',
      url: '/api/vue/upload',
      headers: { 'content-type': noPurpose.contentType, token: alice },
      payload: noPurpose.payload,
    });
    expect([r1.statusCode, r1.json().msg]).toEqual([400, 'parameterError']);
    expect((await upload(alice, 'receipt')).body).toMatchObject({ status: 0, msg: 'parameterError' });
    const json = await h.app.inject({
      method: 'POST',
      url: '/api/vue/upload',
      headers: { 'content-type': 'application/json', token: alice },
      payload: '{"purpose":"receipt"}',
    });
    expect([json.statusCode, json.json()]).toEqual([400, { status: 0, msg: 'parameterError', data: null }]);
    expect(await stored()).toEqual(before);
  });

  it('needs a session: 401 notLoggedIn without one, sessionExpired for an expired one', async () => {
    const before = await stored();
    const file = { bytes: png(4), filename: 'a.png', contentType: 'image/png' };
    expect(await upload(undefined, 'receipt', file)).toEqual({
      http: 401,
      body: { status: 0, msg: 'notLoggedIn', data: null },
    });
    expect((await upload('x'.repeat(43), 'receipt', file)).http).toBe(401);
    const login = await h.call('user/login', { account: '0911000002', password: 'password123' });
    const token = login.body.data.token as string;
    await h.database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 minute' where token_hash = ${hashToken(token)}`,
    );
    const r = await upload(token, 'receipt', file);
    expect(r.http).toBe(401);
    expect(r.body.msg).toBe('sessionExpired');
    expect(await stored()).toEqual(before);
  });

  it('serves the bytes to the owner and an operator only; another member gets 404, nobody 401', async () => {
    const bytes = png(5);
    const r = await upload(alice, 'kycBack', { bytes, filename: 'b.png', contentType: 'image/png' });
    const id = r.body.data.id as string;

    const stored = await readFile(path.join(dataDir, 'uploads', id));
    const own = await fetchUpload(id, alice);
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(stored)).toBe(true);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['content-disposition']).toBe(`inline; filename="${id}.png"`);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const byOperator = await fetchUpload(id, op);
    expect(byOperator.statusCode).toBe(200);
    expect(byOperator.rawPayload.equals(stored)).toBe(true);

    const other = await fetchUpload(id, bob);
    expect([other.statusCode, other.json()]).toEqual([404, { status: 0, msg: 'notFound', data: null }]);
    const none = await fetchUpload(id);
    expect([none.statusCode, none.json().msg]).toEqual([401, 'notLoggedIn']);
    const missing = await fetchUpload('0'.repeat(32), alice);
    expect(missing.statusCode).toBe(404);
    const bad = await fetchUpload('..%2F..%2Fetc%2Fpasswd', alice);
    expect([bad.statusCode, bad.json().msg]).toEqual([404, 'notFound']);
  });

  it('caps one member at UPLOADS_PER_DAY_MAX uploads a day (429 tooFrequent), writing nothing', async () => {
    const token = await h.register('0911000003');
    const me = await userId('0911000003');
    await h.database.db.insert(uploads).values(
      Array.from({ length: UPLOADS_PER_DAY_MAX - 1 }, (_, i) => ({
        id: `e${i.toString(16).padStart(31, '0')}`,
        userId: me,
        purpose: 'receipt' as const,
        mime: 'image/png',
        bytes: 1,
        sha256: '0'.repeat(64),
        receivedSha256: '0'.repeat(64),
      })),
    );
    const file = { bytes: png(6), filename: 'a.png', contentType: 'image/png' };
    expect((await upload(token, 'receipt', file)).body.status).toBe(1);
    const before = await stored();
    expect(await upload(token, 'receipt', file)).toEqual({
      http: 429,
      body: { status: 0, msg: 'tooFrequent', data: null },
    });
    expect(await stored()).toEqual(before);
    // Others are not affected.
    expect((await upload(alice, 'receipt', file)).body.status).toBe(1);
  });

  it('leaves the JSON API refusing multipart bodies', async () => {
    const { payload, contentType } = multipart({ purpose: 'receipt' });
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/vue/user/info',
      headers: { 'content-type': contentType, token: alice },
      payload,
    });
    expect(r.statusCode).toBeGreaterThanOrEqual(400);
    expect(r.statusCode).toBeLessThan(500);
    expect(r.json().status).toBe(0);
  });
});

// ---------- KYC ----------

describe('real-name verification', () => {
  it('runs submit → reject with a reason → resubmit → approve, visible to the member at each step', async () => {
    const token = await h.register('0912000001');
    const me = await userId('0912000001');
    const status = async () => (await h.call('user/kyc', {}, token)).body.data;
    const infoStatus = async () => (await h.call('user/info', {}, token)).body.data.kycStatus;

    expect(await status()).toMatchObject({ status: 'unverified', name: null, idNumberMasked: null });
    expect(await infoStatus()).toBe('unverified');

    const first = await submitKyc(token, '陳 大文', 'a123456789', 10);
    expect(first.body).toMatchObject({ status: 1, msg: 'kycSubmitted' });
    expect(await status()).toMatchObject({ status: 'review', name: '陳 大文', idNumberMasked: 'A1******89' });
    expect(await infoStatus()).toBe('review');

    // A second submission while in review is refused.
    const again = await submitKyc(token, '陳大文', 'A123456789', 12);
    expect([again.http, again.body.msg]).toEqual([409, 'kycUnderReview']);

    const kycId = await pendingKycIdOf('0912000001');
    const queued = (await h.call('admin/kyc', { status: 'pending' }, op)).body.data.items.find(
      (i: { id: number }) => i.id === kycId,
    );
    expect(queued).toMatchObject({ idNumber: 'A123456789', status: 'review', name: '陳 大文' });

    const rejected = await h.call('admin/rejectKyc', { id: kycId, reason: 'Photo blurred' }, op);
    expect(rejected.body).toMatchObject({ status: 1, data: { status: 'rejected', reason: 'Photo blurred' } });
    expect(await status()).toMatchObject({ status: 'rejected', reason: 'Photo blurred' });
    expect(await infoStatus()).toBe('rejected');
    expect(await kycStatusOf(h.database.db, me)).toBe('rejected');
    expect(await verifiedNameOf(h.database.db, me)).toBeNull();

    // Reviewing twice is impossible.
    const twice = await h.call('admin/approveKyc', { id: kycId }, op);
    expect([twice.http, twice.body.msg]).toEqual([409, 'operationFailed']);

    const resubmit = await submitKyc(token, '陳大文', 'A123456789', 14);
    expect(resubmit.body.status).toBe(1);
    expect(await status()).toMatchObject({ status: 'review', reason: null });

    const secondId = await pendingKycIdOf('0912000001');
    expect(secondId).not.toBe(kycId);
    const approved = await h.call('admin/approveKyc', { id: secondId }, op);
    expect(approved.body).toMatchObject({ status: 1, data: { status: 'verified' } });
    expect(await status()).toMatchObject({ status: 'verified', name: '陳大文' });
    expect(await infoStatus()).toBe('verified');
    expect(await verifiedNameOf(h.database.db, me)).toBe('陳大文');

    const afterVerified = await submitKyc(token, '陳大文', 'A123456789', 16);
    expect([afterVerified.http, afterVerified.body.msg]).toEqual([409, 'alreadyVerified']);

    const entries = await h.database.db
      .select()
      .from(auditLog)
      .where(
        sql`${auditLog.targetType} = 'kyc' and ${auditLog.targetId} in (${String(kycId)}, ${String(secondId)})`,
      )
      .orderBy(auditLog.id);
    expect(entries.map((e) => e.action)).toEqual(['kyc.reject', 'kyc.approve']);
    expect(JSON.parse(entries[0]!.before!)).toMatchObject({ status: 'review' });
    expect(JSON.parse(entries[0]!.after!)).toMatchObject({ status: 'rejected', reason: 'Photo blurred' });
    expect(entries[0]!.reason).toBe('Photo blurred');
  });

  it('needs the caller’s own uploads with the right purposes, else idImagesMissing; nothing written', async () => {
    const token = await h.register('0912000002');
    const other = await h.register('0912000003');
    const front = await uploadId(token, 'kycFront', 20);
    const back = await uploadId(token, 'kycBack', 21);
    const receipt = await uploadId(token, 'receipt', 22);
    const othersBack = await uploadId(other, 'kycBack', 23);
    const [before] = await h.database.db.select({ n: count() }).from(kycRecords);
    const cases = [
      { frontUploadId: back, backUploadId: front },
      { frontUploadId: front, backUploadId: receipt },
      { frontUploadId: front, backUploadId: othersBack },
      { frontUploadId: front, backUploadId: '0'.repeat(32) },
    ];
    for (const c of cases) {
      const r = await h.call('user/submitKyc', { name: '林小華', idNumber: 'F131104093', ...c }, token);
      expect([r.http, r.body.msg]).toEqual([422, 'idImagesMissing']);
    }
    const badId = await h.call(
      'user/submitKyc',
      { name: '林小華', idNumber: 'F131104094', frontUploadId: front, backUploadId: back },
      token,
    );
    expect([badId.http, badId.body.msg]).toEqual([400, 'invalidIdNumber']);
    const [after] = await h.database.db.select({ n: count() }).from(kycRecords);
    expect(after!.n).toBe(before!.n);
  });

  it('takes a submission of another member’s verified ID number like any other; approval refuses it', async () => {
    await verifiedMember('0912000004', '張三', 'HD12345678', 30);
    const token = await h.register('0912000005');
    const fresh = await h.register('0912000015');
    const r = await submitKyc(token, '張三', 'HD12345678', 32);
    // The same answer as a number nobody holds: nothing says the number is someone's.
    const control = await submitKyc(fresh, '張三', 'A800000032', 34);
    expect([r.http, r.body.status, r.body.data.status]).toEqual([200, 1, 'review']);
    expect(Object.keys(r.body.data).sort()).toEqual(Object.keys(control.body.data).sort());
    expect([control.http, control.body.data.status]).toEqual([200, 'review']);
    // The operator's queue marks the duplicate; approving it is refused.
    const queue = await h.call('admin/kyc', { status: 'pending', page: 1, pageSize: 200 }, op);
    const items = queue.body.data.items as Array<{ account: string; duplicateId: boolean }>;
    expect(items.find((k) => k.account === '0912000005')?.duplicateId).toBe(true);
    expect(items.find((k) => k.account === '0912000015')?.duplicateId).toBe(false);
    const approve = await h.call('admin/approveKyc', { id: await pendingKycIdOf('0912000005') }, op);
    expect([approve.http, approve.body.msg]).toEqual([409, 'alreadyVerified']);
  });

  it('takes a submission of an ID number under review for another member; the first approved wins', async () => {
    const a = await h.register('0912000008');
    const b = await h.register('0912000009');
    expect((await submitKyc(a, '王五', 'A800000023', 44)).body.status).toBe(1);
    const r = await submitKyc(b, '王五', 'A800000023', 46);
    expect([r.http, r.body.status, r.body.data.status]).toEqual([200, 1, 'review']);
    const approveB = await h.call('admin/approveKyc', { id: await pendingKycIdOf('0912000009') }, op);
    expect(approveB.body.status).toBe(1);
    const approveA = await h.call('admin/approveKyc', { id: await pendingKycIdOf('0912000008') }, op);
    expect([approveA.http, approveA.body.msg]).toEqual([409, 'alreadyVerified']);
    const reject = await h.call(
      'admin/rejectKyc',
      { id: await pendingKycIdOf('0912000008'), reason: 'ID number in use' },
      op,
    );
    expect(reject.body.status).toBe(1);
  });

  it('approving a second submission of a verified ID number fails on the unique index', async () => {
    const a = await h.register('0912000006');
    const b = await h.register('0912000007');
    expect((await submitKyc(a, '李四', 'A800000014', 40)).body.status).toBe(1);
    // A second pending record of the same number, written directly: the API refuses to create one.
    const [first] = await h.database.db
      .select()
      .from(kycRecords)
      .where(eq(kycRecords.id, await pendingKycIdOf('0912000006')));
    const frontB = await uploadId(b, 'kycFront', 42);
    const backB = await uploadId(b, 'kycBack', 43);
    await h.database.db.insert(kycRecords).values({
      userId: await userId('0912000007'),
      name: first!.name,
      idNumber: first!.idNumber,
      frontUploadId: frontB,
      backUploadId: backB,
      status: 'review',
    });
    expect(
      (await h.call('admin/approveKyc', { id: await pendingKycIdOf('0912000006') }, op)).body.status,
    ).toBe(1);
    const second = await h.call('admin/approveKyc', { id: await pendingKycIdOf('0912000007') }, op);
    expect([second.http, second.body.msg]).toEqual([409, 'alreadyVerified']);
    expect((await h.call('user/kyc', {}, b)).body.data.status).toBe('review');
  });

  it('answers 404 for a missing submission', async () => {
    const r = await h.call('admin/rejectKyc', { id: 999_999, reason: 'x' }, op);
    expect([r.http, r.body.msg]).toEqual([404, 'notFound']);
  });
});

// ---------- bank cards ----------

describe('bank cards', () => {
  let wang: string;
  let lee: string;
  beforeAll(async () => {
    wang = await verifiedMember('0913000001', '王小明', 'F131104093', 50);
    lee = await verifiedMember('0913000002', 'Lee  Ming', 'A900000016', 52);
  });

  it('needs real-name verification first: unverified or rejected 422, in review 409', async () => {
    const fresh = await h.register('0913000003');
    const r1 = await h.call('user/addBankCard', card(), fresh);
    expect([r1.http, r1.body.msg]).toEqual([422, 'realNameNotCompleted']);
    expect((await submitKyc(fresh, '王小明', taiwanId(54), 54)).body.status).toBe(1);
    const r2 = await h.call('user/addBankCard', card(), fresh);
    expect([r2.http, r2.body.msg]).toEqual([409, 'kycUnderReview']);
    await h.call('admin/rejectKyc', { id: await pendingKycIdOf('0913000003'), reason: 'mismatch' }, op);
    const r3 = await h.call('user/addBankCard', card(), fresh);
    expect([r3.http, r3.body.msg]).toEqual([422, 'realNameNotCompleted']);
  });

  it('needs the holder to be the verified name (spaces trimmed and collapsed)', async () => {
    const wrong = await h.call('user/addBankCard', card({ holderName: '王大明' }), wang);
    expect([wrong.http, wrong.body.msg]).toEqual([422, 'holderNameMismatch']);
    const spaced = await h.call(
      'user/addBankCard',
      card({ holderName: '  Lee   Ming ', cardNumber: '5555666677778888' }),
      lee,
    );
    expect(spaced.body).toMatchObject({
      status: 1,
      msg: 'cardAdd',
      data: { holderName: 'Lee Ming', cardNumberMasked: '**** 8888' },
    });
  });

  it('adds, lists masked, refuses duplicates (own: duplicateCard, another’s: notOwnCard) and deletes', async () => {
    const added = await h.call('user/addBankCard', card(), wang);
    // A listed bank code keeps a listed name (contract/banks.ts): '台灣銀行' is not the listed one.
    expect(added.body).toMatchObject({
      status: 1,
      data: { cardNumberMasked: '**** 7890', bankCode: '004', bankName: '臺灣銀行', branchCode: '0037' },
    });
    const list = await h.call('user/bankCards', {}, wang);
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body.data)).not.toContain('0081234567890');

    const dup = await h.call('user/addBankCard', card(), wang);
    expect([dup.http, dup.body.msg]).toEqual([409, 'duplicateCard']);
    const others = await h.call('user/addBankCard', card({ holderName: 'Lee Ming' }), lee);
    expect([others.http, others.body.msg]).toEqual([409, 'notOwnCard']);

    // Another member cannot delete it; a missing card is not found either.
    const id = added.body.data.id as number;
    expect((await h.call('user/deleteBankCard', { id }, lee)).body.msg).toBe('cardNotFound');
    expect((await h.call('user/deleteBankCard', { id: 987_654 }, wang)).http).toBe(404);

    const del = await h.call('user/deleteBankCard', { id }, wang);
    expect(del.body).toMatchObject({ status: 1, msg: 'unbind' });
    expect((await h.call('user/bankCards', {}, wang)).body.data).toEqual([]);
    expect((await h.call('user/deleteBankCard', { id }, wang)).http).toBe(404);
    const [row] = await h.database.db.select().from(bankCards).where(eq(bankCards.id, id));
    expect(row!.deletedAt).not.toBeNull();

    // Once deleted, the number may be bound again (here by the other member).
    const rebound = await h.call('user/addBankCard', card({ holderName: 'Lee Ming' }), lee);
    expect(rebound.body.status).toBe(1);
  });

  it('Taiwan account: needs a 3-digit bank code and a 4-digit branch code; an unlisted code keeps the typed name', async () => {
    const ctbc = await h.call(
      'user/addBankCard',
      card({ cardNumber: '8220000012345678', bankCode: '822', bankName: 'CTBC', branchCode: '0901' }),
      wang,
    );
    expect(ctbc.body).toMatchObject({ status: 1, msg: 'cardAdd' });
    expect(ctbc.body.data).toMatchObject({
      outsideTaiwan: false,
      bankCode: '822',
      bankName: '中國信託商業銀行', // 'CTBC' is not a listed name
      branchName: '館前分行',
      branchCode: '0901',
      upi: null,
    });
    const unlisted = await h.call(
      'user/addBankCard',
      card({
        cardNumber: '9990000012345678',
        bankCode: '999',
        bankName: ' 範例商業銀行 ',
        branchCode: '0012',
      }),
      wang,
    );
    expect(unlisted.body.data).toMatchObject({
      bankCode: '999',
      bankName: '範例商業銀行',
      branchCode: '0012',
    });
    // The listed English name (as the English screen fills it in) is kept.
    const en = await h.call(
      'user/addBankCard',
      card({
        cardNumber: '0130000012345678',
        bankCode: '013',
        bankName: 'Cathay United Bank',
        branchCode: '0077',
      }),
      wang,
    );
    expect(en.body.data).toMatchObject({ bankCode: '013', bankName: 'Cathay United Bank' });

    const refused = async (body: object) => {
      const r = await h.call('user/addBankCard', card({ cardNumber: '1230000012345678', ...body }), wang);
      return [r.http, r.body.msg];
    };
    expect(await refused({ bankCode: undefined })).toEqual([400, 'fieldsEmpty']);
    expect(await refused({ branchCode: undefined })).toEqual([400, 'fieldsEmpty']);
    expect(await refused({ bankCode: '04' })).toEqual([400, 'parameterError']);
    expect(await refused({ bankCode: '0O4' })).toEqual([400, 'parameterError']);
    // The old 7-digit form (bank + branch) is no branch code any more.
    expect(await refused({ branchCode: '0040037' })).toEqual([400, 'parameterError']);
    expect(await refused({ branchCode: '037' })).toEqual([400, 'parameterError']);
    // A UPI / IFSC belongs to accounts outside Taiwan only.
    expect(await refused({ upi: 'BKTWTWTP' })).toEqual([400, 'parameterError']);
    const live = await h.database.db
      .select({ n: count() })
      .from(bankCards)
      .where(eq(bankCards.cardNumber, '1230000012345678'));
    expect(live[0]!.n).toBe(0);

    for (const id of [ctbc.body.data.id, unlisted.body.data.id, en.body.data.id] as number[])
      expect((await h.call('user/deleteBankCard', { id }, wang)).body.status).toBe(1);
  });

  it('account outside Taiwan: needs its UPI / IFSC and takes no bank or branch code', async () => {
    const abroad = {
      cardNumber: '3456000012345678',
      outsideTaiwan: true,
      bankCode: undefined,
      branchCode: undefined,
      bankName: 'State Bank of India',
      branchName: 'Mumbai Main',
      upi: 'SBIN0001234',
    };
    const added = await h.call('user/addBankCard', card(abroad), wang);
    expect(added.body).toMatchObject({ status: 1, msg: 'cardAdd' });
    expect(added.body.data).toMatchObject({
      outsideTaiwan: true,
      bankCode: null,
      bankName: 'State Bank of India',
      branchCode: null,
      upi: 'SBIN0001234',
    });
    const list = await h.call('user/bankCards', {}, wang);
    expect(list.body.data.find((c: { id: number }) => c.id === added.body.data.id)).toMatchObject({
      outsideTaiwan: true,
      upi: 'SBIN0001234',
    });

    const refused = async (body: object) => {
      const r = await h.call(
        'user/addBankCard',
        card({ ...abroad, cardNumber: '3456000099998888', ...body }),
        wang,
      );
      return [r.http, r.body.msg];
    };
    expect(await refused({ upi: undefined })).toEqual([400, 'fieldsEmpty']);
    expect(await refused({ upi: 'SBIN 0001234' })).toEqual([400, 'parameterError']);
    expect(await refused({ bankCode: '004' })).toEqual([400, 'parameterError']);
    expect(await refused({ branchCode: '0037' })).toEqual([400, 'parameterError']);

    // The database holds the rule too: an account outside Taiwan always has its UPI / IFSC.
    const wangId = await userId('0913000001');
    const bad = await h.database.db
      .insert(bankCards)
      .values({
        userId: wangId,
        holderName: '王小明',
        cardNumber: '3456000077776666',
        outsideTaiwan: true,
        bankName: 'b',
        branchName: 'b',
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(bad).not.toBeNull();
    expect(
      (await h.call('user/deleteBankCard', { id: added.body.data.id as number }, wang)).body.status,
    ).toBe(1);
  });

  it('two members adding the same number at once: exactly one wins, the other gets a 409', async () => {
    const number = '4000123412341234';
    const [a, b] = await Promise.all([
      h.call('user/addBankCard', card({ cardNumber: number }), wang),
      h.call('user/addBankCard', card({ cardNumber: number, holderName: 'Lee Ming' }), lee),
    ]);
    const answers = [a, b].map((r) => [r.http, r.body.msg]);
    expect(answers.filter(([http]) => http === 200)).toHaveLength(1);
    expect(answers.filter(([http, msg]) => http === 409 && msg === 'notOwnCard')).toHaveLength(1);
    const live = await h.database.db
      .select({ n: count() })
      .from(bankCards)
      .where(sql`${bankCards.cardNumber} = ${number} and ${bankCards.deletedAt} is null`);
    expect(live[0]!.n).toBe(1);
  });

  it('recognises the live-card unique violation on this driver (what the race relies on)', async () => {
    const wangId = await userId('0913000001');
    const row = {
      userId: wangId,
      holderName: '王小明',
      bankName: 'b',
      branchName: 'b',
      branchCode: '004',
      upi: 'x',
    };
    await h.database.db.insert(bankCards).values({ ...row, cardNumber: '7777000077770000' });
    const err = await h.database.db
      .insert(bankCards)
      .values({ ...row, cardNumber: '7777000077770000' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(err, 'bank_cards_number_live_uq')).toBe(true);
    expect(isUniqueViolation(err, 'kyc_verified_id_uq')).toBe(false);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('refuses to delete a card a pending withdrawal pays out to (otherFundOperation)', async () => {
    const added = await h.call('user/addBankCard', card({ cardNumber: '6222000011112222' }), wang);
    const id = added.body.data.id as number;
    const wangId = await userId('0913000001');
    await h.database.db.insert(withdrawals).values({ userId: wangId, cardId: id, amountMinor: 100_000 });
    const r = await h.call('user/deleteBankCard', { id }, wang);
    expect([r.http, r.body.msg]).toEqual([409, 'otherFundOperation']);
    await h.database.db.update(withdrawals).set({ status: 'rejected' }).where(eq(withdrawals.cardId, id));
    expect((await h.call('user/deleteBankCard', { id }, wang)).body.status).toBe(1);
  });
});

// ---------- passwords ----------

describe('login password', () => {
  it('needs the old password, then ends the other sessions and keeps this one', async () => {
    const token = await h.register('0914000001', 'password111');
    const other = (await h.call('user/login', { account: '0914000001', password: 'password111' })).body.data
      .token as string;
    const change = { oldPassword: 'wrongpass1', password: 'newpass2222', confirmPassword: 'newpass2222' };
    const wrong = await h.call('user/loginPassword', change, token);
    expect([wrong.http, wrong.body.msg]).toEqual([422, 'wrongOriginalPassword']);
    const differ = await h.call(
      'user/loginPassword',
      { ...change, oldPassword: 'password111', confirmPassword: 'newpass3333' },
      token,
    );
    expect([differ.http, differ.body.msg]).toEqual([400, 'passwordsDiffer']);

    const ok = await h.call('user/loginPassword', { ...change, oldPassword: 'password111' }, token);
    expect(ok.body).toMatchObject({ status: 1, msg: 'passwordChanged' });
    expect((await h.call('user/info', {}, token)).http).toBe(200);
    expect((await h.call('user/info', {}, other)).http).toBe(401);
    expect((await h.call('user/login', { account: '0914000001', password: 'password111' })).http).toBe(401);
    expect((await h.call('user/login', { account: '0914000001', password: 'newpass2222' })).body.status).toBe(
      1,
    );
  });
});

describe('funds password', () => {
  it('is set once, changed only with the old one, locks after wrong tries and an operator unlocks', async () => {
    const token = await h.register('0915000001');
    const me = await userId('0915000001');
    const security = async () => (await h.call('user/security', {}, token)).body.data;
    expect(await security()).toEqual({
      fundsPasswordSet: false,
      fundsPasswordLocked: false,
      fundsPasswordTriesLeft: FUNDS_PASSWORD_MAX_TRIES,
    });
    expect((await h.call('user/info', {}, token)).body.data.fundsPasswordSet).toBe(false);
    await expect(verifyFundsPassword(h.database.db, me, '123456')).rejects.toMatchObject({
      key: 'fundsPasswordNotSet',
    });

    const bad = await h.call(
      'user/setPassword',
      { fundsPassword: '12345', confirmFundsPassword: '12345' },
      token,
    );
    expect(bad.http).toBe(400);
    const set = await h.call(
      'user/setPassword',
      { fundsPassword: '135790', confirmFundsPassword: '135790' },
      token,
    );
    // The first one is "set" (the toast says so), a later one "changed".
    expect(set.body).toMatchObject({ status: 1, msg: 'fundsPasswordSet', data: { outcome: 'set' } });
    expect((await security()).fundsPasswordSet).toBe(true);
    expect((await h.call('user/info', {}, token)).body.data.fundsPasswordSet).toBe(true);

    // Changing needs the old one.
    const noOld = await h.call(
      'user/setPassword',
      { fundsPassword: '192837', confirmFundsPassword: '192837' },
      token,
    );
    expect([noOld.http, noOld.body.msg]).toEqual([400, 'fieldsEmpty']);

    // A right check resets the count; wrong ones count up (the setPassword check counts too).
    await verifyFundsPassword(h.database.db, me, '135790');
    await expect(verifyFundsPassword(h.database.db, me, '000000')).rejects.toMatchObject({
      key: 'fundsPasswordWrong',
      httpStatus: 422,
    });
    expect((await security()).fundsPasswordTriesLeft).toBe(FUNDS_PASSWORD_MAX_TRIES - 1);
    await verifyFundsPassword(h.database.db, me, '135790');
    expect((await security()).fundsPasswordTriesLeft).toBe(FUNDS_PASSWORD_MAX_TRIES);

    for (let i = 1; i < FUNDS_PASSWORD_MAX_TRIES; i++) {
      const r = await h.call(
        'user/setPassword',
        { oldFundsPassword: '000000', fundsPassword: '192837', confirmFundsPassword: '192837' },
        token,
      );
      expect([r.http, r.body.msg]).toEqual([422, 'fundsPasswordWrong']);
    }
    await expect(verifyFundsPassword(h.database.db, me, '000000')).rejects.toMatchObject({
      key: 'fundsPasswordLocked',
      httpStatus: 403,
    });
    expect(await security()).toMatchObject({ fundsPasswordLocked: true, fundsPasswordTriesLeft: 0 });
    // Locked: even the right password is refused, and the password cannot be changed.
    await expect(verifyFundsPassword(h.database.db, me, '135790')).rejects.toMatchObject({
      key: 'fundsPasswordLocked',
    });
    const change = await h.call(
      'user/setPassword',
      { oldFundsPassword: '135790', fundsPassword: '192837', confirmFundsPassword: '192837' },
      token,
    );
    expect([change.http, change.body.msg]).toEqual([403, 'fundsPasswordLocked']);

    const users_ = await h.call('admin/users', { q: '0915000001' }, op);
    expect(users_.body.data.items[0]).toMatchObject({ fundsPasswordLocked: true });

    const memberTry = await h.call('admin/unlockFundsPassword', { id: me }, token);
    expect(memberTry.http).toBe(403);
    const unlock = await h.call('admin/unlockFundsPassword', { id: me }, op);
    expect(unlock.body.status).toBe(1);
    expect(await security()).toMatchObject({ fundsPasswordLocked: false });
    const [entry] = await h.database.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'user.unlockFundsPassword' and ${auditLog.targetId} = ${String(me)}`);
    expect(JSON.parse(entry!.before!)).toEqual({ fundsPasswordFails: FUNDS_PASSWORD_MAX_TRIES });
    expect(JSON.parse(entry!.after!)).toEqual({ fundsPasswordFails: 0 });

    const changed = await h.call(
      'user/setPassword',
      { oldFundsPassword: '135790', fundsPassword: '192837', confirmFundsPassword: '192837' },
      token,
    );
    expect(changed.body).toMatchObject({ status: 1, msg: 'passwordChanged', data: { outcome: 'changed' } });
    await verifyFundsPassword(h.database.db, me, '192837');
    expect((await h.call('admin/unlockFundsPassword', { id: 999_999 }, op)).http).toBe(404);
  });

  it('counts concurrent wrong tries one by one (the row is locked while checking)', async () => {
    const token = await h.register('0915000002');
    const me = await userId('0915000002');
    await h.call('user/setPassword', { fundsPassword: '283746', confirmFundsPassword: '283746' }, token);
    const results = await Promise.allSettled(
      Array.from({ length: 3 }, () => verifyFundsPassword(h.database.db, me, '999999')),
    );
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect((await h.call('user/security', {}, token)).body.data.fundsPasswordTriesLeft).toBe(
      FUNDS_PASSWORD_MAX_TRIES - 3,
    );
  });
});

describe('member centre', () => {
  it('shows the USD available balance (0 without a USD account)', async () => {
    const token = await h.register('0916000001');
    expect((await h.call('user/info', {}, token)).body.data.usdMinor).toBe(0);
    const me = await userId('0916000001');
    await ensurePlatformAccounts(h.database.db, 'USD');
    await h.database.db.transaction(async (tx) => {
      await ensureMemberAccounts(tx, me, 'USD');
      await post(tx, {
        type: 'deposit',
        postings: move(
          { platform: 'bank_clearing', currency: 'USD' },
          { userId: me, purpose: 'available', currency: 'USD' },
          12_345,
        ),
      });
    });
    const info = (await h.call('user/info', {}, token)).body.data;
    expect(info.usdMinor).toBe(12_345);
    expect(info.availableMinor).toBe(0);
  });
});
